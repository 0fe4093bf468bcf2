import Synchronization

/// Disposes an inner disposable on a given scheduler: `dispose()` schedules the inner
/// `dispose()` and returns. Used by `subscribe(on:)` to move disposal.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    /// The scheduler the inner disposable is disposed on.
    public let scheduler: ImmediateSchedulerType

    private let disposed = Atomic<Bool>(false)
    private var inner: Disposable?

    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.inner = disposable
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = scheduler.schedule(self) { scheduled in
            let inner = scheduled.inner
            scheduled.inner = nil
            inner?.dispose()
            return Disposables.create()
        }
    }
}
