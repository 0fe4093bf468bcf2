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
/// its own increment, see `MPSCQueue`). The same counter tells `MainScheduler` whether a
/// drain holds its queue (see `requests`), and with `runsAhead` gives its pending count.
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
    @usableFromInline let pending = DispatchActionQueue()
    /// Drain requests no drain has accounted for yet: one per action, added just after the
    /// action is queued (`requestDrain`), subtracted by the drain in bulk once the queue
    /// looks empty (not when a block yields: the next block carries them). Above zero from
    /// the first request of a burst until its drain has ended, so above zero while any of
    /// the drain's actions runs: `MainScheduler`'s inline test reads it, with
    /// `DispatchActionQueue.consumerHasTakenEveryClaim()` for actions queued behind a slot
    /// whose producer has not published yet (a drain that stops at such a slot can take
    /// the count to zero, and the slot's producer starts the next drain). With
    /// `SchedulerDispatch.perAction`, where no drain runs, `MainScheduler` counts its
    /// per-action blocks in the same word instead.
    ///
    /// One read-modify-write per action serves the wake-up and the count: `MainScheduler`
    /// needs no counter of its own on the producer's path.
    @usableFromInline let requests = Atomic<Int>(0)
    /// Actions the drains have run minus the requests they have subtracted (written by the
    /// consumer only, when a block ends or subtracts; negative while a drain has
    /// subtracted requests of actions still queued behind an unpublished slot). `requests`
    /// minus this is the number of actions queued or running, at the granularity of a
    /// block: `pendingCount`.
    let runsAhead = Atomic<Int>(0)
    /// Drain blocks submitted to the queue so far (one per burst, and one more per
    /// `batchSize` actions); for measuring.
    let blocksSubmitted = Atomic<Int>(0)

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Actions queued or running, as of the consumer's last block end or subtraction: a
    /// reader on another thread may see a block's runs late, a count high for a moment,
    /// never low (the runs are stored before the subtraction that they offset, and a
    /// reader that sees the subtraction sees them). Never negative.
    var pendingCount: Int {
        max(0, requests.load(ordering: .acquiring) &- runsAhead.load(ordering: .acquiring))
    }

    /// Queues `action` with `state` and makes sure a drain block is on its way; the handle
    /// cancels exactly this action. Nothing is allocated (a state over 24 bytes is boxed).
    @inlinable
    func schedule<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        let handle = pending.enqueue(state, action: action)
        requestDrain()
        return handle
    }

    /// Counts one request, and submits the drain block if none is scheduled or running.
    @usableFromInline
    func requestDrain() {
        stressPoint(.batchSubmitted)
        if requests.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
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
        // Runs since `runsAhead` was last written.
        var unreported = 0
        let started = MonotonicClock.now()
        // `requests` stays at or above `accounted`, so above zero, while an action runs:
        // it drops only below, once the queue looks empty.
        while true {
            while pending.runNext() || SpinWait.poll(until: pending.runNext) {
                ran += 1
                unreported += 1
                if ran == Self.batchSize
                    || (ran & (Self.clockInterval - 1) == 0 && MonotonicClock.now() &- started >= Self.timeBudget)
                {
                    reportRuns(unreported, subtracted: 0)
                    let carried = accounted
                    blocksSubmitted.wrappingAdd(1, ordering: .relaxed)
                    queue.async { self.drain(accounted: carried) }
                    return
                }
            }
            stressPoint(.batchExiting)
            // Before the subtraction, so that `pendingCount` on another thread is high for a
            // moment rather than low.
            reportRuns(unreported, subtracted: accounted)
            unreported = 0
            let remaining = requests.wrappingSubtract(accounted, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 { return }
            accounted = remaining
        }
    }

    /// Adds a block's runs to `runsAhead`, less the requests about to be subtracted. The
    /// consumer is its only writer, so a load and a store, not a read-modify-write.
    private func reportRuns(_ runs: Int, subtracted: Int) {
        runsAhead.store(runsAhead.load(ordering: .relaxed) &+ runs &- subtracted, ordering: .releasing)
    }
}
