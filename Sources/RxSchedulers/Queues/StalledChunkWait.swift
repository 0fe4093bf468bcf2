import Synchronization

/// What the core saw the last time a queue producer waited more than 5 s for the next
/// chunk (`MPSCQueue.awaitNextChunk`): a stuck queue's state, kept for a stress run's hang
/// report. The core never prints; a harness reads this when it reports a hang.
package enum StalledChunkWait {
    /// The tail word (chunk and claims) the waiting producer last loaded; 0 when no wait in
    /// this process has passed 5 s. Written once per stalled wait, `relaxed`: it is a
    /// diagnostic, read after the fact, and orders nothing.
    package static let tailWord = Atomic<UInt>(0)
}
