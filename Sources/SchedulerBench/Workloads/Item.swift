import BenchModel
import Foundation
/// The event the throughput and latency workloads send: who sent it, its place in that
/// producer's sequence, when it was meant to be sent, and an optional heap payload. A
/// `HandOff` carries it unchanged from producer to consumer.
public struct Item: Sendable {
    /// The producer thread that sent it (0, 1, …).
    public var producer: Int
    /// Its place in that producer's sequence (0, 1, …).
    public var sequence: Int
    /// Intended send time (MonotonicClock ns) for latency workloads; 0 otherwise.
    public var stamp: UInt64
    /// `payload_bytes` of freshly allocated memory (one allocation per event, freed by
    /// whichever thread drops the event last, as with a real message); nil for 0 bytes.
    public var payload: ContiguousArray<UInt8>?
    #if ValidationSlowdown
    /// The thread that made it: the slowdown spins once per thread that handles an event.
    var madeOn = pthread_self()
    #endif

    @inline(__always)
    package init(producer: Int, sequence: Int, stamp: UInt64 = 0, payloadBytes: Int = 0) {
        self.producer = producer
        self.sequence = sequence
        self.stamp = stamp
        payload = payloadBytes > 0 ? ContiguousArray(repeating: UInt8(truncatingIfNeeded: sequence), count: payloadBytes) : nil
        ValidationSlowdown.perEvent()  // where the event is made (empty in normal builds)
    }
}

/// Splits `total` events over `producers` as evenly as possible (the first ones get the remainder).
func evenShares(of total: Int, over producers: Int) -> [Int] {
    (0..<producers).map { total / producers + ($0 < total % producers ? 1 : 0) }
}
