import Foundation
import RxSchedulers

/// Builds a fresh scheduler for each trial, so no queue, counter or thread pool state
/// carries from one trial to the next. (`currentThread`, `concurrentMain` and `mainAsync`
/// are process-wide in RxSwift's API and stay so.)
public enum SchedulerFactory {
    public static func make(_ name: SchedulerName, strategy: StrategyName = .none) -> any ImmediateSchedulerType {
        switch name {
        case .currentThread:
            return CurrentThreadScheduler.instance
        case .main:
            return MainScheduler(dispatch: strategy == .perAction ? .perAction : .batched)
        case .mainAsync:
            return MainScheduler.asyncInstance
        case .serial:
            return SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "schedbench.serial")
        case .concurrent:
            return ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        case .concurrentMain:
            return ConcurrentMainScheduler.instance
        case .operationQueue:
            let queue = OperationQueue()
            queue.name = "schedbench.operationQueue"
            return OperationQueueScheduler(operationQueue: queue)
        case .virtual:
            return HistoricalScheduler()
        case .none:
            preconditionFailure("scheduler 'none' has no Rx scheduler; baselines build their own queue")
        }
    }

    /// A scheduler that also schedules in time (every name but `currentThread` and `none`).
    public static func makeTimed(_ name: SchedulerName, strategy: StrategyName = .none) -> any SchedulerType {
        guard let scheduler = make(name, strategy: strategy) as? any SchedulerType else {
            preconditionFailure("scheduler '\(name.rawValue)' cannot schedule in time")
        }
        return scheduler
    }

    /// The observe(on:) strategy a strategy name selects.
    public static func observeOnStrategy(_ name: StrategyName) -> ObserveOnStrategy {
        name == .reference ? .reference : .drain
    }
}
