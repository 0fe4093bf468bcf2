import COpaquePublish
import Synchronization

/// The actions a batched dispatch scheduler (`BatchedDispatch`) has accepted and not run
/// yet: an unbounded lock-free multi-producer single-consumer FIFO whose slots hold the
/// actions themselves, so that scheduling one allocates nothing.
///
/// - Storage: chunks of `ActionChunk.capacity` slots, the trampoline's slot layout
///   (an action and a state of up to 24 bytes inline, a larger state boxed). A chunk the
///   consumer has finished and no handle refers to is reset and kept (up to
///   `keptChunks`) for the producer that needs the next one, so a steady stream
///   allocates nothing; the hand-over goes through a lock taken once per chunk, not per
///   action.
/// - Handles: `enqueue` returns the slot's `QueuedActionDisposable` (the chunk, retained,
///   and the index), which cancels exactly that action or, once it ran, disposes what it
///   returned. Its chunk lives until the queue has run all of its slots and every handle
///   to it is gone.
/// - Results: while any handle to a chunk is left, each result is kept in its slot for
///   its handle; when none is, the result is released at once (as RxSwift releases an
///   item nobody holds). A held handle therefore keeps the results of the other actions
///   of its chunk until it is released too.
///
/// ## How it works, and why it is safe
///
/// The claim is `MPSCQueue`'s: the tail word packs the tail chunk's address with a claim
/// counter, and one `fetch_add` names a chunk and a slot. A producer that claims a slot
/// below the capacity writes the payload, retains the chunk for the handle, then sets the
/// slot's `publishedBit` with a *release* store, made through an opaque call
/// (`ActionChunk.publish(at:)`) so that the optimizer cannot move those retains below
/// it; the consumer reads the flags with *acquire*. The producer that claims exactly the capacity allocates the next chunk,
/// publishes its own action in slot 0, links the chunk as the old one's `successor`
/// (release; the link owns one reference) and installs it in the tail word. Others wait.
///
/// The consumer owns one reference to the chunk it reads (`head`), taken from the link.
/// It leaves a chunk only after running all of its slots and seeing its link, so every
/// producer's write to a chunk happens before the consumer's release of it; a handle's
/// retain comes before the publish, so it never races the chunk's end.
@usableFromInline
final class DispatchActionQueue: @unchecked Sendable {
    @inlinable static var capacity: Int { ActionChunk.capacity }
    @inlinable static var claimShift: UInt { 48 }
    @inlinable static var addressMask: UInt { (1 << 48) - 1 }

    /// Address of the tail chunk | claims on it << 48. Written by every `enqueue`.
    @usableFromInline let tail: Atomic<UInt>
    /// Keeps the producers' tail word and the consumer's position on different lines.
    @usableFromInline let padding = CacheLinePadding()
    /// The chunk the consumer runs (consumer only).
    @usableFromInline @exclusivity(unchecked) private(set) var head: ActionChunk
    /// The next slot the consumer runs in `head` (consumer only).
    @usableFromInline @exclusivity(unchecked) private(set) var headIndex = 0
    /// Finished chunks, reset, for the next boundary: pushed by the consumer, taken by the
    /// producer that wins a boundary, under `spareLock`, which orders the consumer's last
    /// use of a chunk before a producer's first write to it (a pthread mutex, which
    /// ThreadSanitizer sees; see `Lock`).
    @exclusivity(unchecked) private var spare: [ActionChunk] = []
    private let spareLock = Lock()
    /// Finished chunks kept for reuse; more are freed.
    static var keptChunks: Int { 8 }

    init() {
        let first = ActionChunk()
        head = first
        tail = Atomic(Self.pack(Unmanaged.passUnretained(first), claims: 0))
    }

    deinit {
        // Actions no drain will run are released unrun: running them here would run them
        // on whichever thread let the scheduler go.
        while let index = takeNextPublished() { head.discard(at: index) }
        // Unlink the chain one chunk at a time: releasing it whole would recurse per chunk.
        var link = head.successor.exchange(0, ordering: .acquiring)
        while link != 0 {
            let chunk = Unmanaged<ActionChunk>.fromOpaque(UnsafeRawPointer(bitPattern: link)!).takeRetainedValue()
            link = chunk.successor.exchange(0, ordering: .acquiring)
        }
    }

    /// Queues `action` with `state`; safe from any number of threads at once. The handle
    /// cancels exactly this action.
    @inlinable
    func enqueue<State>(_ state: State, action: @escaping (State) -> Disposable) -> QueuedActionDisposable {
        let (chunk, index) = claim()
        // The handle's reference, taken before the publish: once published, the consumer
        // may run the chunk's last slot and release it.
        let handleReference = chunk.retain()
        chunk._withUnsafeGuaranteedRef { chunk in
            if InlineQueuedAction.fits(State.self) {
                InlineQueuedAction.store(state, action: action, in: chunk.claim(InlineQueuedAction.kind(State.self), at: index))
            } else {
                chunk.store(state, action: action, at: index)
            }
            stressPoint(.actionQueueClaimed)
            chunk.publish(at: index)
        }
        return QueuedActionDisposable(chunk: handleReference.takeRetainedValue(), index: index)
    }

    /// Whether the consumer has taken every slot claimed so far (consumer only): false while
    /// any action is queued, published or not, including one whose producer has claimed its
    /// slot and not yet published it. One acquire load of the tail word; the consumer's
    /// position is its own.
    ///
    /// A claim that happened before the call is seen (the claim is a read-modify-write of
    /// the tail word, read here with acquire), so an action whose `enqueue` returned before
    /// the call counts until the consumer has run it. Claims past the capacity (producers
    /// waiting for the next chunk) never equal the consumer's index, so they count too.
    @inlinable
    func consumerHasTakenEveryClaim() -> Bool {
        let word = tail.load(ordering: .acquiring)
        return Int(word >> Self.claimShift) == headIndex
            && word & Self.addressMask == UInt(bitPattern: Unmanaged.passUnretained(head).toOpaque())
    }

    /// Claims a slot; the chunk is kept alive by the queue until the slot is published.
    @inlinable
    func claim() -> (Unmanaged<ActionChunk>, Int) {
        while true {
            let word = tail.wrappingAdd(1 << Self.claimShift, ordering: .acquiringAndReleasing).oldValue
            let index = Int(word >> Self.claimShift)
            if index < Self.capacity { return (Self.unpack(word), index) }
            if index == Self.capacity { return (appendChunk(after: Self.unpack(word)), 0) }
            MPSCQueue<Int>.awaitNextChunk(tail, at: .actionQueueAwaitingChunk)
        }
    }

    /// Won the boundary: links a new chunk after `full`, with slot 0 claimed for the
    /// caller, and installs it as the tail.
    @usableFromInline
    func appendChunk(after full: Unmanaged<ActionChunk>) -> Unmanaged<ActionChunk> {
        let next = Unmanaged.passRetained(spareLock.performLocked { spare.popLast() } ?? ActionChunk())
        stressPoint(.actionQueueBoundaryWon)
        full._withUnsafeGuaranteedRef {
            $0.successor.store(UInt(bitPattern: next.toOpaque()), ordering: .releasing)
        }
        tail.store(Self.pack(next, claims: 1), ordering: .releasing)
        return next
    }

    /// Runs the oldest published action, or returns `false` when the next one is not
    /// published yet. One consumer at a time.
    func runNext() -> Bool {
        stressPoint(.actionQueueRunning)
        guard let index = takeNextPublished() else { return false }
        stressPoint(.batchDraining)
        // Without a retain per action: `head` holds the chunk, and only this consumer, which
        // is busy running the action, replaces it.
        let chunk = Unmanaged.passUnretained(head)
        if chunk._withUnsafeGuaranteedRef({ $0.run(at: index) }) {
            // With no handle on the chunk, nothing can dispose this action's result later.
            if isKnownUniquelyReferenced(&head) {
                chunk._withUnsafeGuaranteedRef { $0.releaseResult(at: index) }
            } else {
                chunk._withUnsafeGuaranteedRef { $0.keepResult(at: index) }
            }
        }
        return true
    }

    /// Moves past the oldest published slot, stepping to the next chunk when `head` is
    /// done, and returns its index in `head`; `nil` when the next slot is not published yet.
    private func takeNextPublished() -> Int? {
        if headIndex == Self.capacity {
            let link = head.successor.load(ordering: .acquiring)
            if link == 0 { return nil }
            // Release: a handle's last release may free the chunk on another thread, and its
            // deinit loads this word with acquire, which orders this thread's use of every
            // slot before the free (for ThreadSanitizer too, which does not see reference
            // counts). A plain store on x86 and arm64.
            head.successor.store(0, ordering: .releasing)
            var finished = head
            head = Unmanaged<ActionChunk>.fromOpaque(UnsafeRawPointer(bitPattern: link)!).takeRetainedValue()
            headIndex = 0
            recycle(&finished)
        }
        let index = headIndex
        guard head.isPublished(at: index) else { return nil }
        headIndex += 1
        return index
    }

    /// Keeps a chunk the consumer has finished for reuse, when no handle refers to it: no
    /// producer writes to it any more (all its slots were published, and its successor
    /// linked), and no handle can appear (handles are made only by `enqueue`).
    @inline(never)  // once per chunk: kept out of the per-action path it is called from
    private func recycle(_ chunk: inout ActionChunk) {
        guard isKnownUniquelyReferenced(&chunk) else { return }
        // Any disposer that held a handle has finished: `reset` orders its last use of a
        // slot before the reuse (acquire loads of the flags).
        chunk.reset(upTo: Self.capacity)
        spareLock.performLocked {
            if spare.count < Self.keptChunks { spare.append(chunk) }
        }
    }

    @inlinable
    static func pack(_ chunk: Unmanaged<ActionChunk>, claims: UInt) -> UInt {
        let address = UInt(bitPattern: chunk.toOpaque())
        precondition(address & ~addressMask == 0, "DispatchActionQueue: chunk address above 48 bits")
        return claims << claimShift | address
    }

    @inlinable
    static func unpack(_ word: UInt) -> Unmanaged<ActionChunk> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word & addressMask)!)
    }
}
