/// Schedules an action that may schedule itself again, and disposes every pending
/// schedule at once when the whole recursion is disposed.
///
/// Handed to the action of `scheduleRecursive(_:dueTime:action:)`.
public final class AnyRecursiveScheduler<State>: @unchecked Sendable {
    /// The action: receives the state and this scheduler, to recurse with.
    public typealias Action = (State, AnyRecursiveScheduler<State>) -> Void

    /// One pending schedule: its key in `pending` once registered, or `finished` when
    /// its action already started (possibly before `schedule` returned).
    private final class Registration {
        var key: BagKey?
        var finished = false
    }

    private let scheduler: ImmediateSchedulerType
    private let timedScheduler: SchedulerType?
    private let action: Action
    private let lock = Lock()
    private var pending: Bag<Disposable>? = Bag()
    /// Runs scheduled inline from inside this recursion's own action (see `run`).
    private var deferred: [(State, Registration)] = []

    init(scheduler: ImmediateSchedulerType, action: @escaping Action) {
        self.scheduler = scheduler
        self.timedScheduler = scheduler as? SchedulerType
        self.action = action
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    /// Schedules the action again with `state`, after `dueTime`.
    /// Requires the underlying scheduler to be a `SchedulerType`.
    public func schedule(_ state: State, dueTime: RxTimeInterval) {
        guard let timedScheduler else {
            preconditionFailure("schedule(_:dueTime:) needs a SchedulerType, got \(type(of: scheduler))")
        }
        let registration = Registration()
        let disposable = timedScheduler.scheduleRelative(state, dueTime: dueTime) { state in
            self.run(state, registration)
        }
        register(disposable, registration)
    }

    /// Schedules the action again with `state`, as soon as the scheduler allows.
    public func schedule(_ state: State) {
        let registration = Registration()
        let disposable = scheduler.schedule(state) { state in
            self.run(state, registration)
        }
        register(disposable, registration)
    }

    /// Runs the action, or defers it when the scheduler ran it inline from inside this
    /// recursion's own action on this thread (ConcurrentMainScheduler or MainScheduler on
    /// main). The outer run then loops over what was deferred, so a long recursion — one
    /// step per event in observe(on:) — does not grow the stack. RxSwift nests instead and
    /// overflows the stack once a burst of roughly ten thousand events is queued.
    private func run(_ state: State, _ registration: Registration) -> Disposable {
        let thisThread = runningRecursion.value
        let me = ObjectIdentifier(self)
        if thisThread.current == me {
            lock.performLocked { deferred.append((state, registration)) }
            return Disposables.create()
        }
        let outer = thisThread.current
        thisThread.current = me
        defer { thisThread.current = outer }
        runNow(state, registration)
        while let (state, registration) = lock.performLocked({ deferred.isEmpty ? nil : deferred.removeFirst() }) {
            runNow(state, registration)
        }
        return Disposables.create()
    }

    private func runNow(_ state: State, _ registration: Registration) {
        let alive: Bool = lock.performLocked {
            registration.finished = true
            if let key = registration.key { _ = pending?.removeValue(forKey: key) }
            return pending != nil
        }
        if alive { action(state, self) }
    }

    private func register(_ disposable: Disposable, _ registration: Registration) {
        let disposeNow: Bool = lock.performLocked {
            guard pending != nil else { return true }
            if !registration.finished { registration.key = pending!.insert(disposable) }
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Cancels every pending schedule; the action will not run again.
    public func dispose() {
        let all: Bag<Disposable>? = lock.performLocked {
            let all = pending
            pending = nil
            return all
        }
        all?.forEach { $0.dispose() }
    }
}

/// The recursion whose action is running on this thread, if any.
private final class RunningRecursion {
    var current: ObjectIdentifier?
}

private let runningRecursion = ThreadLocalSlot { RunningRecursion() }

extension ImmediateSchedulerType {
    /// Runs `action(state)`, which may call `recurse(newState)` to run again later on
    /// this scheduler. The returned disposable cancels the pending recursion.
    /// On the trampoline the recursion's code is specialized in the caller.
    @inlinable
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        RxSchedulers.scheduleRecursive(state, on: self, action: action)
    }

    /// `scheduleRecursive` on any scheduler but the trampoline: one `schedule` per step.
    @usableFromInline
    func scheduleRecursiveThroughSchedule<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable
    {
        let recursive = AnyRecursiveScheduler<State>(scheduler: self) { state, scheduler in
            action(state) { scheduler.schedule($0) }
        }
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

/// `scheduleRecursive` for operators that hold their scheduler as an existential: generic
/// over the state alone, so it is specialized in the caller even though the scheduler's
/// type is not known there (an extension method on an opened existential is not).
@inlinable
func scheduleRecursive<State>(
    _ state: State, on scheduler: ImmediateSchedulerType, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
) -> Disposable {
    if scheduler is CurrentThreadScheduler {
        return TrampolineRecursion.start(state, action: action)
    }
    return scheduler.scheduleRecursiveThroughSchedule(state, action: action)
}

extension SchedulerType {
    /// Runs `action(state)` after `dueTime`; the action may reschedule itself through
    /// the `AnyRecursiveScheduler` it receives. The returned disposable cancels it all.
    public func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping (State, AnyRecursiveScheduler<State>) -> Void)
        -> Disposable
    {
        let recursive = AnyRecursiveScheduler(scheduler: self, action: action)
        recursive.schedule(state, dueTime: dueTime)
        return Disposables.create(with: recursive.dispose)
    }
}
