import Dispatch
import Foundation

/// Runs work on the main queue, inline whenever the caller is already on it (even if
/// other work is enqueued: unlike `MainScheduler.instance` it does not keep FIFO order
/// with earlier work). Meant for `subscribe(on:)`, where re-entrancy does not matter.
public final class ConcurrentMainScheduler: SchedulerType, DispatchPeriodicScheduling {
    public typealias TimeInterval = Foundation.TimeInterval
    public typealias Time = Date

    private let mainScheduler: MainScheduler
    private let mainQueue = DispatchQueue.main

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    public var now: Date { mainScheduler.now }

    var dispatchConfiguration: DispatchQueueConfiguration { mainScheduler.configuration }

    /// Runs `action` inline on the main queue, or enqueues it there from elsewhere.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if DispatchQueue.isMain { return action(state) }
        let cancel = SingleAssignmentDisposable()
        mainQueue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
