import BenchModel
import Foundation
import RxSchedulers

extension SchedulerName {
    /// Builds the scheduler for one trial, fresh where RxSwift's API allows, so no queue,
    /// counter or thread pool carries from one trial to the next (`currentThread`,
    /// `concurrentMain`, `mainShared`, `mainAsync` and the concurrent global queue are
    /// process-wide in RxSwift and stay so). `strategy` picks the dispatch of `main`
    /// (`batched` unless it names one), `serial` and `concurrent` (`perAction` unless it names
    /// one); RxSwift's per-action dispatch for `reference` and `referenceGeneric`.
    /// Traps for `none`, which has no scheduler: the plan never pairs it with an Rx workload.
    package func make(strategy: StrategyName = .none) -> any ImmediateSchedulerType {
        switch self {
        case .currentThread:
            return CurrentThreadScheduler.instance
        case .main:
            return MainScheduler(dispatch: strategy.dispatch ?? .batched)
        case .mainShared:
            return MainScheduler.instance
        case .mainAsync:
            return MainScheduler.asyncInstance
        case .serial:
            return SerialDispatchQueueScheduler(
                qos: .userInitiated, internalSerialQueueName: "schedbench.serial", dispatch: strategy.dispatch ?? .perAction)
        case .concurrent:
            return ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: strategy.dispatch ?? .perAction)
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

    /// `make(strategy:)` for a scheduler that also schedules in time (all but `currentThread`,
    /// `operationQueue` and `none`, as in RxSwift).
    package func makeTimed(strategy: StrategyName = .none) -> any SchedulerType {
        guard let scheduler = make(strategy: strategy) as? any SchedulerType else {
            preconditionFailure("scheduler '\(rawValue)' cannot schedule in time")
        }
        return scheduler
    }
}
