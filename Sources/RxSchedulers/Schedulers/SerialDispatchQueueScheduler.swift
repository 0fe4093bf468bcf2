import Dispatch
import Foundation

/// Runs work on a serial dispatch queue: actions never overlap and run in the order
/// they were scheduled. A concurrent queue passed in is wrapped in a serial queue that
/// targets it.
///
/// `dispatch` chooses how `schedule` reaches the queue: `.perAction` (the default,
/// RxSwift's algorithm) submits one block per action; `.batched` queues actions without
/// a lock and runs them in blocks of up to `SchedulerDispatch.batchSize`, at a fraction
/// of the cost per action (see `SchedulerDispatch`).
public class SerialDispatchQueueScheduler: SchedulerType, DispatchPeriodicScheduling {
    public typealias TimeInterval = Foundation.TimeInterval
    public typealias Time = Date
    /// How `schedule` hands actions to the queue.
    public typealias Dispatch = SchedulerDispatch

    @usableFromInline let configuration: DispatchQueueConfiguration
    /// The batched dispatch that takes actions into a queue slot and counts them in its
    /// drain requests (`BatchedDispatch.requests`): `MainScheduler` with
    /// `SchedulerDispatch.batched`; nil otherwise. Stored, so `schedule` reads it without a call.
    @usableFromInline let countedBatch: BatchedDispatch?

    /// `countedBatch` for `schedule`'s batched path, which need not retain it (`self` does).
    @inlinable var countedBatchUnretained: Unmanaged<BatchedDispatch>? {
        countedBatch.map { Unmanaged.passUnretained($0) }
    }

    var dispatchConfiguration: DispatchQueueConfiguration { configuration }

    /// The current wall-clock time.
    public var now: Date { Date() }

    /// How this scheduler hands actions to its queue.
    public var dispatch: Dispatch { configuration.dispatch }

    init(
        serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0), dispatch: Dispatch = .perAction,
        countedBatch: BatchedDispatch? = nil
    ) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway, dispatch: dispatch)
        self.countedBatch = countedBatch
    }

    /// A scheduler on a new serial queue named `internalSerialQueueName`, after
    /// `serialQueueConfiguration` has had a chance to configure it.
    public convenience init(
        internalSerialQueueName: String,
        serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        dispatch: Dispatch = .perAction
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway, dispatch: dispatch)
    }

    /// A scheduler on a new serial queue that targets `queue` (which may be concurrent).
    public convenience init(
        queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0), dispatch: Dispatch = .perAction
    ) {
        let serialQueue = DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue)
        self.init(serialQueue: serialQueue, leeway: leeway, dispatch: dispatch)
    }

    /// A scheduler on a new serial queue that targets the global queue of `qos`.
    public convenience init(
        qos: DispatchQoS,
        internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0),
        dispatch: Dispatch = .perAction
    ) {
        self.init(
            queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName, leeway: leeway, dispatch: dispatch)
    }

    /// Schedules `action` on the queue as `dispatch` says; `MainScheduler` runs it inline
    /// when it may.
    ///
    /// Inlinable, so that a caller that knows the state's type allocates the item with
    /// code specialized for it (see `DispatchQueueConfiguration.schedule`).
    @inlinable
    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if enterInline() {
            defer { exitInline() }
            return action(state)
        }
        if let countedBatch = countedBatchUnretained {
            // Without a retain of its own: `self` holds it for the whole call.
            return countedBatch._withUnsafeGuaranteedRef { $0.schedule(state, action: action) }
        }
        guard submitsOwnWay else { return configuration.schedule(state, action: action) }
        let item = ScheduledItem(action: action, state: state)
        submitOwnWay(item)
        return item
    }

    /// Whether `schedule` may run the action on the calling thread now; if so, the
    /// caller calls `exitInline` after it. Never, here; `MainScheduler` overrides it.
    @usableFromInline
    func enterInline() -> Bool { false }

    /// Ends an inline run that `enterInline` allowed.
    @usableFromInline
    func exitInline() {}

    /// Whether a subclass hands items to the queue its own way (`submitOwnWay`) rather
    /// than through the configuration: `MainScheduler`'s counted dispatch.
    @usableFromInline
    var submitsOwnWay: Bool { false }

    /// Hands `item` to the queue a subclass's way; see `submitsOwnWay`.
    @usableFromInline
    func submitOwnWay(_ item: ScheduledItemType) {
        preconditionFailure("SerialDispatchQueueScheduler.submitOwnWay: only subclasses that submit their own way")
    }

    /// Schedules `action` on a one-shot dispatch timer.
    public final func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` periodically with `PeriodicPolicy.default` (catch-up: ticks missed
    /// while the action runs are replayed in order); see `schedulePeriodic(_:startAfter:period:policy:action:)`.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        schedulePeriodic(state, startAfter: startAfter, period: period, policy: .default, action: action)
    }
}
