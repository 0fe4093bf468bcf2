import Synchronization

/// The actions waiting on one thread's trampoline (`CurrentThreadScheduler`), in FIFO
/// order, stored in reused chunks so that queuing an action allocates nothing.
///
/// - Storage: chunks of `chunkCapacity` slots of one cache line each (64 bytes,
///   `ActionChunk.slotStride`). A slot holds the action and its state inline when the
///   state fits in 24 bytes (`()`, an object, up to three
///   words); a larger state is boxed, one allocation. Once the action ran, the slot keeps
///   what it returned, so that disposing the action's handle after it ran disposes that
///   too (RxSwift's `ScheduledItem`), unless no handle to the chunk is left: then nothing
///   can dispose it, and it is released at once. A `NopDisposable` result is neither
///   kept nor released (it holds nothing). States of no bytes (`()`) run through
///   code specialized once for `Void` (`QueuedActionKind.empty`).
/// - Handles: `enqueue` returns a `QueuedActionDisposable`, a chunk reference and a slot
///   index, which fits in an existential's inline buffer (no allocation). A chunk is
///   reused only when no handle refers to it any more (`isKnownUniquelyReferenced`), so
///   a handle always names exactly its own action; a chunk that handles still hold is
///   left to them and freed with the last one.
/// - Reuse: emptied chunks are kept for the next burst, so repeated bursts allocate
///   nothing, and handed out oldest first (`TrampolineSpareChunks`), so that each burst
///   walks memory in the same direction as the one before it. After a burst that used
///   under a quarter of the chunks kept, half of them are freed (RxSwift's rule for its queue, which halves below a quarter full), down to
///   `keptChunks`: after a deep burst the memory goes back within a few bursts.
/// - Threads: everything but a handle's `dispose` and `isDisposed` runs on the owning
///   thread; those two may run on any thread and touch only the slot's flags and result
///   (see `ActionChunk`). The queue's own state is touched by its thread only and is
///   never borrowed across a call, so it is kept without exclusivity checks (they cost
///   about a fifth of a queued action).
@usableFromInline
final class TrampolineQueue {
    /// Slots per chunk.
    @inlinable static var chunkCapacity: Int { ActionChunk.capacity }
    /// Emptied chunks always kept for reuse.
    static var keptChunks: Int { 4 }

    /// The chunk the next action to run is in. Chunks are linked by `next` from here to
    /// `tail`, and each is referenced from exactly one place in the queue (here or the
    /// previous chunk's `next`), so handles are the only other references.
    @exclusivity(unchecked) private var head = ActionChunk()
    /// The chunk new actions go into (reachable from `head`, hence not retained again).
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var tail: ActionChunk
    @exclusivity(unchecked) private var headIndex = 0
    @usableFromInline @exclusivity(unchecked) var tailIndex = 0
    @exclusivity(unchecked) private var spare = TrampolineSpareChunks()
    /// Chunks the current burst has used.
    @exclusivity(unchecked) private var chunksInBurst = 1

    init() {
        tail = head
    }

    deinit {
        spare.removeFirst(spare.count)
    }

    var isEmpty: Bool { head === tail && headIndex == tailIndex }

    /// Emptied chunks kept for the next burst.
    var spareChunkCount: Int { spare.count }

    /// Claims the next slot for a payload of `kind`, which the caller initializes at
    /// once; returns the slot's handle and payload. For code specialized for a state
    /// type, which stores it without the generic value witnesses.
    /// Inlinable, with the rare step to a new chunk out of line: this is most of the
    /// cost of queuing an action.
    @inlinable @inline(__always)
    func claim(_ kind: QueuedActionKind) -> (QueuedActionDisposable, UnsafeMutableRawPointer) {
        if tailIndex == Self.chunkCapacity { appendChunk() }
        let index = tailIndex
        tailIndex = index &+ 1  // below `chunkCapacity`
        return (QueuedActionDisposable(chunk: tail, index: index), tail.claim(kind, at: index))
    }

    /// Queues `action` with `state`; the handle cancels exactly this action.
    @usableFromInline
    func enqueue<State>(_ state: State, action: @escaping (State) -> Disposable) -> QueuedActionDisposable {
        let (chunk, index) = claimSlot()
        chunk.store(state, action: action, at: index)
        return QueuedActionDisposable(chunk: chunk, index: index)
    }

    /// Queues an item that checks its own disposal (a `scheduleRecursive` step).
    func enqueue(_ item: ScheduledItemType) {
        let (chunk, index) = claimSlot()
        chunk.store(item, at: index)
    }

    /// Runs queued actions, and those they queue, until none is left; then makes the
    /// storage ready for the next burst.
    func runAll() {
        do {
            // The chunk being run, without a reference of its own (`head` holds it), so the
            // loop neither retains it per action nor spoils the uniqueness test on `head`.
            var chunk = Unmanaged.passUnretained(head)
            while true {
                if headIndex == tailIndex && chunk.toOpaque() == Unmanaged.passUnretained(tail).toOpaque() {
                    break
                }
                if headIndex == Self.chunkCapacity {
                    var finished = head
                    head = finished.takeNext()
                    chunk = Unmanaged.passUnretained(head)
                    headIndex = 0
                    recycle(&finished)
                }
                let index = headIndex
                headIndex = index &+ 1  // below `chunkCapacity`
                if chunk._withUnsafeGuaranteedRef({ $0.run(at: index) }) {
                    // With no handle on the chunk, nothing can dispose this action's result
                    // later, so it is not kept (as RxSwift releases an item nobody holds).
                    if isKnownUniquelyReferenced(&head) {
                        chunk._withUnsafeGuaranteedRef { $0.releaseResult(at: index) }
                    } else {
                        chunk._withUnsafeGuaranteedRef { $0.keepResult(at: index) }
                    }
                }
            }
        }
        if headIndex == 0 { return }
        if spare.count > Self.keptChunks && spare.count > 3 * chunksInBurst {
            spare.removeFirst(spare.count / 2)
        }
        chunksInBurst = 1
        if isKnownUniquelyReferenced(&head) {
            head.reset(upTo: headIndex)
        } else {
            head = spare.removeFirst() ?? ActionChunk()
            tail = head
        }
        headIndex = 0
        tailIndex = 0
    }

    private func claimSlot() -> (ActionChunk, Int) {
        if tailIndex == Self.chunkCapacity { appendChunk() }
        let index = tailIndex
        tailIndex += 1
        return (tail, index)
    }

    /// Links a spare or new chunk after the full tail chunk, for the next slot.
    @usableFromInline
    func appendChunk() {
        let next = spare.removeFirst() ?? ActionChunk()
        tail.link(next)
        tail = next
        tailIndex = 0
        chunksInBurst += 1
    }

    /// Keeps an emptied chunk for reuse when no handle refers to it; otherwise lets it go.
    private func recycle(_ chunk: inout ActionChunk) {
        guard isKnownUniquelyReferenced(&chunk) else { return }
        chunk.reset(upTo: Self.chunkCapacity)
        spare.append(chunk)
    }
}
