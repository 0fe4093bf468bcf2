import Dispatch
import Synchronization

/// Hands actions to a dispatch queue in batches: they go into a lock-free queue, and one
/// block on the queue runs up to `batchSize` of them before yielding it to other work.
/// One `async` per burst instead of per action; each action is stored in a slot of a
/// `DispatchActionQueue`, whose handle is its disposable, so nothing is allocated per
/// action (`MainScheduler`'s counted dispatch queues its own items).
///
/// The trade-off against one `async` per action (RxSwift's algorithm): actions run in
/// order, one at a time, in blocks of up to `batchSize`, so on a concurrent queue they
/// no longer run in parallel with each other, and a block submitted straight to the
/// queue between two actions may run after both. Ordering among the scheduler's own
/// actions is FIFO either way.
///
/// A request counter makes sure exactly one drain block is scheduled or running: an
/// `enqueue` that takes the counter from zero submits the block; the drain subtracts the
/// requests it has seen once the queue looks empty, and ends only when that brings the
/// counter back to zero (a producer between its enqueue and its increment is covered by
/// its own increment, see `MPSCQueue`).
@usableFromInline
final class BatchedDispatch: @unchecked Sendable {
    /// Actions one block runs before yielding the queue.
    static var batchSize: Int { 64 }

    let queue: DispatchQueue
    /// Actions accepted and not finished yet, decremented here after each one runs when
    /// `countsUnfinished` (`MainScheduler` increments it and keeps its count in it).
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

    /// Runs queued actions in order, at most `batchSize` per block, skipping disposed ones.
    /// Holds the drain token: `accounted` requests are covered by this drain.
    private func drain(accounted: Int) {
        var accounted = accounted
        var ran = 0
        while true {
            while pending.runNext() || SpinWait.poll(until: pending.runNext) {
                if countsUnfinished { unfinished.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
                ran += 1
                if ran == Self.batchSize {
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
