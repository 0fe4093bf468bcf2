/// How a dispatch-queue scheduler hands the actions it does not run inline to its queue
/// (`MainScheduler.Dispatch`, `SerialDispatchQueueScheduler.Dispatch`,
/// `ConcurrentDispatchQueueScheduler.Dispatch`).
public enum SchedulerDispatch: String, CaseIterable, Sendable {
    /// A lock-free queue drained by one block per burst, which yields the queue after
    /// `batchSize` actions or `batchTimeBudget`, whichever comes first: the action is
    /// stored in the queue's slot, so nothing is allocated per action (a state over 24
    /// bytes is boxed), at a fraction of a `DispatchQueue.async` measured at the same
    /// moment (docs/performance).
    /// The actions of one scheduler run one at a time, in order, even on a concurrent
    /// queue, and blocks submitted straight to the queue do not interleave with them one
    /// by one. `MainScheduler`'s default.
    case batched
    /// One `DispatchQueue.async` per action (RxSwift's algorithm): on a concurrent queue
    /// actions may run in parallel. The default of the serial and concurrent schedulers.
    case perAction

    /// Actions one block runs at most before yielding the queue, with `batched`.
    public static var batchSize: Int { BatchedDispatch.batchSize }

    /// How long one block runs actions before yielding the queue short of `batchSize`,
    /// with `batched`; the block checks the clock every 32 actions.
    public static var batchTimeBudget: Duration { .nanoseconds(BatchedDispatch.timeBudget) }
}
