import Synchronization

/// Live-object accounting for the core, RxSwift's `Resources` (which RxSwift compiles
/// only with `TRACE_RESOURCES`; here it is always on).
///
/// Every observable, sink, disposable, observer, subject and scheduled item counts
/// itself in while alive. Once every subscription has ended and the observables are
/// released, `total` is back to where it started; a higher value is a leak.
///
/// Cost: one relaxed atomic add on creation and one on destruction of each counted
/// object (a few nanoseconds uncontended); nothing per event.
public enum Resources {
    private static let counter = Atomic<Int32>(0)

    /// The number of core objects alive now.
    public static var total: Int32 { counter.load(ordering: .relaxed) }

    /// Counts one object in; returns the new total.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Counts one object out; returns the new total.
    @discardableResult
    public static func decrementTotal() -> Int32 {
        counter.wrappingSubtract(1, ordering: .relaxed).newValue
    }

    /// The number of observables `observe(on:)` made for a `SerialDispatchQueueScheduler`
    /// that are alive now (RxSwift's, for tests that check which implementation was chosen).
    public static var numberOfSerialDispatchQueueObservables: Int32 { SerialQueueObservableCount.total }
}
