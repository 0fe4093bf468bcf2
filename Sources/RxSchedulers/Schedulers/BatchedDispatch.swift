import Dispatch
import Synchronization

/// Hands actions to a dispatch queue in batches: they go into a lock-free queue, and one
/// block on the queue runs them until none is left, `batchSize` have run, or it has run
/// for `timeBudget`, then yields the queue to other work. One `async` per burst instead
/// of per action; each action is stored in a slot of a `DispatchActionQueue`, whose
/// handle is its disposable, so nothing is allocated per action.
///
/// Why a time budget as well as a count: each block costs the queue a turn of its own (on
/// Linux, for the main queue, a turn of the run loop), so fewer, larger blocks cost less
/// per action; but a count alone lets heavy actions hold the queue for as long as that
/// many of them take, so a block also yields once it has run for `timeBudget`. The clock
/// is read once per `clockInterval` actions (a read costs about 20 ns), so a block yields
/// at a multiple of it once the budget is spent. In the micro suite's main-queue hand-off
/// from a background thread, 64 and 256 actions per block measured the same
/// (docs/performance/journal.md, 2026-11-27).
///
/// The trade-off against one `async` per action (RxSwift's algorithm): actions run in
/// order, one at a time, in blocks, so on a concurrent queue they no longer run in
/// parallel with each other, and a block submitted straight to the queue between two
/// actions may run after both. Ordering among the scheduler's own actions is FIFO
/// either way.
///
/// A request counter makes sure exactly one drain block is scheduled or running: an
/// `enqueue` that takes the counter from zero submits the block; the drain subtracts the
/// requests it has seen once the queue looks empty, and ends only when that brings the
/// counter back to zero (a producer between its enqueue and its increment is covered by
/// its own increment, see `MPSCQueue`).
@usableFromInline
final class BatchedDispatch: @unchecked Sendable {
    /// Actions one block runs at most before yielding the queue.
    static var batchSize: Int { 256 }
    /// Nanoseconds one block runs actions before it yields the queue short of
    /// `batchSize`: 0.5 ms, under a thirtieth of a 60 Hz frame for the main queue.
    static var timeBudget: UInt64 { 500_000 }
    /// Actions between two reads of the clock; a power of two.
    static var clockInterval: Int { 32 }

    let queue: DispatchQueue
    /// Actions accepted and not finished yet, when `countsUnfinished` (`MainScheduler`
    /// increments it per action and reads it for its inline test). A block subtracts the
    /// actions it ran when it stops running actions, not one by one: one read-modify-write
    /// per block instead of one per action on a word every producer writes.
    @usableFromInline let unfinished = Atomic<Int>(0)
    private let countsUnfinished: Bool
    @usableFromInline let pending = DispatchActionQueue()
    @usableFromInline let drainRequests = Atomic<Int>(0)
    /// Drain blocks submitted to the queue so far (one per burst, and one more per
    /// `batchSize` actions); for measuring.
    let blocksSubmitted = Atomic<Int>(0)

    init(queue: DispatchQueue, countsUnfinished: Bool = false) {
        self.queue = queue
        self.countsUnfinished = countsUnfinished
    }

    /// Queues `action` with `state` and makes sure a drain block is on its way; the handle
    /// cancels exactly this action. Nothing is allocated (a state over 24 bytes is boxed).
    @inlinable
    func schedule<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        let handle = pending.enqueue(state, action: action)
        requestDrain()
        return handle
    }

    /// `schedule`, counting the action in `unfinished` first, as `MainScheduler`'s inline
    /// test needs: from the increment on, a main-queue caller sees an action of its
    /// scheduler pending and enqueues behind it instead of running inline.
    @inlinable
    func scheduleCounted<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        unfinished.wrappingAdd(1, ordering: .acquiringAndReleasing)
        stressPoint(.mainEnqueuing)
        return schedule(state, action: action)
    }

    /// Counts one request, and submits the drain block if none is scheduled or running.
    @usableFromInline
    func requestDrain() {
        stressPoint(.batchSubmitted)
        if drainRequests.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            blocksSubmitted.wrappingAdd(1, ordering: .relaxed)
            queue.async { self.drain(accounted: 1) }
        }
    }

    /// Runs queued actions in order, skipping disposed ones, until none is left or the
    /// block has had its share (`batchSize` actions, or `timeBudget`).
    /// Holds the drain token: `accounted` requests are covered by this drain.
    private func drain(accounted: Int) {
        var accounted = accounted
        var ran = 0
        let started = MonotonicClock.now()
        // On the queue this block holds, nothing can tell this from a subtraction per action:
        // the inline test runs there, and an action of the block sees itself counted either
        // way. Other threads' `pendingCount` includes the block's finished actions a little
        // longer.
        defer { if countsUnfinished { unfinished.wrappingSubtract(ran, ordering: .acquiringAndReleasing) } }
        while true {
            while pending.runNext() || SpinWait.poll(until: pending.runNext) {
                ran += 1
                if ran == Self.batchSize
                    || (ran & (Self.clockInterval - 1) == 0 && MonotonicClock.now() &- started >= Self.timeBudget)
                {
                    let carried = accounted
                    blocksSubmitted.wrappingAdd(1, ordering: .relaxed)
                    queue.async { self.drain(accounted: carried) }
                    return
                }
            }
            stressPoint(.batchExiting)
            if SeededBug.isActive(.batchLostWakeup) {
                drainRequests.store(0, ordering: .releasing)
                return
            }
            let remaining = drainRequests.wrappingSubtract(accounted, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 { return }
            accounted = remaining
        }
    }
}
