import Dispatch
import Foundation

/// Runs work on a (usually concurrent) dispatch queue: actions may overlap.
public class ConcurrentDispatchQueueScheduler: SchedulerType, DispatchPeriodicScheduling {
    public typealias TimeInterval = Foundation.TimeInterval
    public typealias Time = Date

    let configuration: DispatchQueueConfiguration

    var dispatchConfiguration: DispatchQueueConfiguration { configuration }

    /// The current wall-clock time.
    public var now: Date { Date() }

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// A scheduler on the global queue of `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// Schedules `action` with `queue.async`.
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
