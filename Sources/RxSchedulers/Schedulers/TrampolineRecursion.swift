import Synchronization

/// `scheduleRecursive` on the trampoline without an allocation per step.
///
/// The recursion is one queue item that re-enqueues itself on this thread's trampoline
/// with the next state, so each step takes its turn in the trampoline's FIFO exactly as
/// a freshly scheduled item would (RxSwift's interleaving), but costs only a queue slot.
/// A step that recurses more than once queues the extra steps as ordinary items.
/// Disposing stops the recursion: a queued step is skipped.
final class TrampolineRecursion<State>: ScheduledItemType, @unchecked Sendable {
    typealias Action = (State, (State) -> Void) -> Void

    private let action: Action
    /// The state of the queued step, if `hasQueuedState`. Kept out of line rather than as a
    /// `State?`: this code runs unspecialized, and every `State?` access looked up the
    /// `Optional<State>` metadata (about a quarter of a step's instructions under callgrind).
    /// Only touched on the trampoline's thread, so without exclusivity checks either.
    private let queuedState = UnsafeMutablePointer<State>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasQueuedState = false
    private let disposed = Atomic<Bool>(false)

    init(action: @escaping Action) {
        self.action = action
        Resources.incrementTotal()
    }

    deinit {
        if hasQueuedState { queuedState.deinitialize(count: 1) }
        queuedState.deallocate()
        Resources.decrementTotal()
    }

    private func queue(_ state: State) {
        queuedState.initialize(to: state)
        hasQueuedState = true
    }

    /// Runs the first step through the trampoline (inline when it is idle) and returns
    /// the disposable that stops the recursion.
    static func start(_ state: State, action: @escaping Action) -> Disposable {
        let recursion = TrampolineRecursion(action: action)
        recursion.queue(state)
        if CurrentThreadScheduler.isScheduleRequired {
            // The trampoline is idle: this runs the first step (and the rest) before returning.
            _ = CurrentThreadScheduler.instance.schedule(recursion) { recursion in
                recursion.invoke()
                return Disposables.create()
            }
        } else {
            // Queued as itself, so the trampoline skips it if it is disposed first.
            CurrentThreadScheduler.enqueue(recursion)
        }
        return recursion
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Runs the queued step. The trampoline skips a disposed recursion, whose queued state
    /// `deinit` then releases.
    func invoke() {
        guard hasQueuedState else { return }
        hasQueuedState = false
        step(queuedState.move())
    }

    private func step(_ state: State) {
        action(state) { next in self.recurse(next) }
    }

    private func recurse(_ state: State) {
        if isDisposed { return }
        if !hasQueuedState {
            queue(state)
            CurrentThreadScheduler.enqueue(self)
        } else {
            _ = CurrentThreadScheduler.instance.schedule(state) { state in
                if !self.isDisposed { self.step(state) }
                return Disposables.create()
            }
        }
    }

    func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
