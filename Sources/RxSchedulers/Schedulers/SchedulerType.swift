import Dispatch
import Foundation

/// A relative time, as in RxSwift 6.
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time, as in RxSwift 6.
public typealias RxTime = Date

/// Runs units of work, without a notion of time.
public protocol ImmediateSchedulerType {
    /// Schedules `action(state)`; the returned disposable cancels it if it has not run
    /// yet (best effort) and disposes what the action returned once it has.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// Runs units of work now, later, or periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action(state)` to run after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Runs `action` first after `startAfter`, then every `period`, threading the
    /// returned state into the next call, until the returned disposable is disposed.
    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling emulated with recursive relative scheduling, RxSwift's
    /// catch-up algorithm: a tick that falls due while the previous one still runs is
    /// counted, and every counted tick is replayed once, in order, as soon as possible.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicCatchUp(scheduler: self, startAfter: startAfter, period: period, action: action, state: state)
        return periodic.start()
    }
}
