import Dispatch
import Foundation

/// Runs work on a (usually concurrent) dispatch queue: actions may overlap.
///
/// `dispatch` chooses how `schedule` reaches the queue: `.perAction` (the default,
/// RxSwift's algorithm) submits one block per action, so actions may run in parallel;
/// `.batched` runs them one at a time in blocks of up to `SchedulerDispatch.batchSize`,
/// at a fraction of the cost per action, giving up that parallelism among this
/// scheduler's actions (see `SchedulerDispatch`).
public class ConcurrentDispatchQueueScheduler: SchedulerType, DispatchPeriodicScheduling {
    public typealias TimeInterval = Foundation.TimeInterval
    public typealias Time = Date
    /// How `schedule` hands actions to the queue.
    public typealias Dispatch = SchedulerDispatch

    @usableFromInline let configuration: DispatchQueueConfiguration

    var dispatchConfiguration: DispatchQueueConfiguration { configuration }

    /// The current wall-clock time.
    public var now: Date { Date() }

    /// How this scheduler hands actions to its queue.
    public var dispatch: Dispatch { configuration.dispatch }

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0), dispatch: Dispatch = .perAction) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway, dispatch: dispatch)
    }

    /// A scheduler on the global queue of `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0), dispatch: Dispatch = .perAction) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway, dispatch: dispatch)
    }

    /// Schedules `action` on the queue as `dispatch` says. Inlinable, so that the item is
    /// allocated by code specialized for the state's type (see `DispatchQueueConfiguration.schedule`).
    @inlinable
    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
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
