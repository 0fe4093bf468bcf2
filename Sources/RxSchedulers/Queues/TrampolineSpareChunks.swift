/// The emptied chunks a `TrampolineQueue` keeps for its next burst, handed out in the
/// order they were emptied (first in, first out), linked through their `next` field.
///
/// The order matters for speed, not correctness: a burst then walks its chunks in the
/// same direction through memory as the burst before it, which the processor's
/// prefetcher follows. Handing out the most recently emptied chunk first (a stack) made
/// every other burst of a million nested schedules walk memory backwards, at twice the
/// cost per action (53 against 27 ns here; docs/performance/journal.md).
///
/// Owned by one thread's queue; nothing here is shared. Costs nothing per action: a
/// chunk is linked or unlinked once per `TrampolineQueue.chunkCapacity` actions.
struct TrampolineSpareChunks {
    /// The chunk handed out next; holds the rest of the list through its `next` link.
    private var first: ActionChunk?
    /// The chunk appended last, reachable from `first`, hence not retained again.
    private unowned(unsafe) var last: ActionChunk?
    /// Chunks kept.
    private(set) var count = 0

    /// Keeps `chunk`, which must be emptied and linked to no other chunk.
    mutating func append(_ chunk: ActionChunk) {
        if let last { last.link(chunk) } else { first = chunk }
        last = chunk
        count += 1
    }

    /// Hands out the chunk kept longest, or `nil` when none is kept.
    mutating func removeFirst() -> ActionChunk? {
        guard let chunk = first else { return nil }
        first = chunk.takeNextIfLinked()
        if first == nil { last = nil }
        count -= 1
        return chunk
    }

    /// Frees the `count` chunks kept longest, one at a time (releasing the list's head
    /// would free its chain recursively, one stack frame per chunk).
    mutating func removeFirst(_ count: Int) {
        for _ in 0..<count { _ = removeFirst() }
    }
}
