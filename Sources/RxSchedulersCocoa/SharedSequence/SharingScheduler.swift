import RxSchedulers
import Synchronization

/// Makes the scheduler that `Driver` and `Signal` deliver on: a new `MainScheduler` by
/// default. Tests swap it for a virtual-time scheduler with `mock(scheduler:action:)`, so
/// that a pipeline built of drivers runs in virtual time.
///
/// The factory is read each time a shared sequence is built (not per event), under a
/// lock, so a mock installed on one thread is seen by pipelines built on any thread
/// while it is installed.
public enum SharingScheduler {
    private static let factory = Mutex<() -> SchedulerType>({ MainScheduler() })

    /// The factory of the scheduler shared sequences deliver on.
    public static var make: () -> SchedulerType {
        factory.withLock { $0 }
    }

    /// Runs `action` with shared sequences built during it delivering on `scheduler`,
    /// then puts the previous factory back (also when `action` throws). For tests only:
    /// a release build should deliver on the main scheduler.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with shared sequences built during it delivering on the schedulers
    /// `makeScheduler` makes, then puts the previous factory back. For tests only.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let previous = factory.withLock { factory in
            defer { factory = makeScheduler }
            return factory
        }
        defer { factory.withLock { $0 = previous } }
        try action()
    }
}
