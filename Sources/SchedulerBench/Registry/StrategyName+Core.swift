import BenchModel
import RxSchedulers

/// What a strategy's name selects in the core, looked up through the core by the core's
/// own names.
extension StrategyName {
    /// The observe(on:) strategy this name selects (a composite name's primary), if it
    /// names one.
    package var observeOnStrategy: ObserveOnStrategy? { ObserveOnStrategy(name: primary.rawValue) }

    /// The periodic policy this name selects (a composite name's primary), if it names one.
    package var periodicPolicy: PeriodicPolicy? { PeriodicPolicy(rawValue: primary.rawValue) }

    /// The dispatch (`SchedulerDispatch`) this name selects on the dispatch-queue schedulers
    /// (main, serial, concurrent), if it names one: a dispatch's own name, or a composite
    /// name's dispatch part. RxSwift's observe(on:) algorithms (`reference`,
    /// `referenceGeneric`) alone select RxSwift's dispatch, one block per action, so that
    /// they are RxSwift end to end.
    package var dispatch: SchedulerDispatch? {
        if let part = dispatchPart { return SchedulerDispatch(rawValue: part.rawValue) }
        return self == .reference || self == .referenceGeneric ? .perAction : SchedulerDispatch(rawValue: rawValue)
    }

    /// `observeOnStrategy`, or an error naming the workload that needs one.
    package func requireObserveOnStrategy(for workload: WorkloadName) throws -> ObserveOnStrategy {
        guard let strategy = observeOnStrategy else {
            throw BenchError.caseCannotRun("\(workload.rawValue) needs an observe(on:) strategy, not '\(rawValue)'")
        }
        return strategy
    }
}
