import Synchronization

/// `scheduleRecursive` on the trampoline without an allocation per step.
///
/// The recursion is one queue item that re-enqueues itself on this thread's trampoline
/// with the next state, so each step takes its turn in the trampoline's FIFO exactly as
/// a freshly scheduled item would (RxSwift's interleaving), but costs only a queue slot.
/// When the trampoline's queue is empty as a step recurses, the next step would be the
/// next item the trampoline runs, so the recursion runs it itself once the step returns
/// (anything the step queues after recursing still runs after it, as in the FIFO):
/// a loop, no queue round trip. A step that recurses more than once queues the extra
/// steps as ordinary items. Disposing stops the recursion: a queued step is skipped.
///
/// Inlinable, so a step's state is moved by code specialized for it in the caller's module
/// rather than through generic value witnesses.
@usableFromInline
final class TrampolineRecursion<State>: ScheduledItemType, @unchecked Sendable {
    @usableFromInline typealias Action = (State, (State) -> Void) -> Void

    @usableFromInline let action: Action
    /// `runQueued` as built where the recursion was created: the trampoline calls
    /// `invoke` through the unspecialized protocol witness, and this closure leads from
    /// there back into code specialized for `State`.
    @usableFromInline let runQueuedSpecialized: (TrampolineRecursion<State>) -> Void
    /// The trampoline of the thread that started the recursion, the only one it runs on.
    @usableFromInline let trampoline: CurrentThreadScheduler.Trampoline
    /// The state of the queued step, if `hasQueuedState`. Kept out of line rather than as a
    /// `State?`: where this code runs unspecialized (the first step of a recursion created
    /// in this module), every `State?` access looked up the `Optional<State>` metadata.
    /// Only touched on the trampoline's thread, so without exclusivity checks either.
    @usableFromInline let queuedState = UnsafeMutablePointer<State>.allocate(capacity: 1)
    @usableFromInline @exclusivity(unchecked) var hasQueuedState = false
    /// The queued step is to run as soon as the running one returns, not from the queue.
    @usableFromInline @exclusivity(unchecked) var continuesInline = false
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(action: @escaping Action, trampoline: CurrentThreadScheduler.Trampoline) {
        self.action = action
        self.trampoline = trampoline
        self.runQueuedSpecialized = { $0.runQueued() }
        Resources.incrementTotal()
    }

    deinit {
        if hasQueuedState { queuedState.deinitialize(count: 1) }
        queuedState.deallocate()
        Resources.decrementTotal()
    }

    @inlinable
    func queue(_ state: State) {
        queuedState.initialize(to: state)
        hasQueuedState = true
    }

    /// Runs the first step through the trampoline (inline when it is idle) and returns
    /// the disposable that stops the recursion.
    @inlinable
    static func start(_ state: State, action: @escaping Action) -> Disposable {
        let trampoline = CurrentThreadScheduler.current
        let recursion = TrampolineRecursion(action: action, trampoline: trampoline)
        recursion.queue(state)
        if !trampoline.isRunning {
            // The trampoline is idle: this runs the first step (and the rest) before returning.
            _ = CurrentThreadScheduler.instance.schedule(recursion) { recursion in
                recursion.runQueued()
                return Disposables.create()
            }
        } else {
            // Queued as itself, so the trampoline skips it if it is disposed first.
            trampoline.enqueue(recursion)
        }
        return recursion
    }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Runs the queued step. The trampoline skips a disposed recursion, whose queued state
    /// `deinit` then releases.
    @inlinable
    func invoke() {
        runQueuedSpecialized(self)
    }

    @inlinable
    func runQueued() {
        guard hasQueuedState else { return }
        hasQueuedState = false
        run(queuedState.move())
    }

    /// Runs a step, then every step continued inline after it, until one is queued or the
    /// recursion is disposed (a state left queued then is released by `deinit`).
    @inlinable
    func run(_ state: State) {
        var state = state
        while true {
            action(state) { next in self.recurse(next) }
            guard continuesInline else { return }
            continuesInline = false
            if isDisposed { return }
            hasQueuedState = false
            state = queuedState.move()
        }
    }

    /// Called only while a step of `run` runs (the closure `action` gets is non-escaping).
    @inlinable
    func recurse(_ state: State) {
        if isDisposed { return }
        if !hasQueuedState {
            queue(state)
            if !trampoline.enqueueUnlessNext(self) { continuesInline = true }
        } else {
            _ = CurrentThreadScheduler.instance.schedule(state) { state in
                if !self.isDisposed { self.run(state) }
                return Disposables.create()
            }
        }
    }

    @inlinable
    func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
