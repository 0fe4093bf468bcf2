/// How a dispatch-queue scheduler hands the actions it does not run inline to its queue
/// (`MainScheduler.Dispatch`, `SerialDispatchQueueScheduler.Dispatch`,
/// `ConcurrentDispatchQueueScheduler.Dispatch`).
public enum SchedulerDispatch: String, CaseIterable, Sendable {
    /// A lock-free queue drained by one block per burst, at most `batchSize` actions per
    /// block: the action is stored in the queue's slot, so nothing is allocated per
    /// action (a state over 24 bytes is boxed), at 0.38–0.44× a `DispatchQueue.async`
    /// measured at the same moment (docs/performance).
    /// The actions of one scheduler run one at a time, in order, even on a concurrent
    /// queue, and blocks submitted straight to the queue do not interleave with them one
    /// by one. `MainScheduler`'s default.
    case batched
    /// One `DispatchQueue.async` per action (RxSwift's algorithm): on a concurrent queue
    /// actions may run in parallel. The default of the serial and concurrent schedulers.
    case perAction

    /// Actions one block runs before yielding the queue, with `batched`.
    public static var batchSize: Int { BatchedDispatch.batchSize }
}
