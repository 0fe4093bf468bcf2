import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `observeOn.throughput`: P producers (`merge` of `create` sources, each `subscribe(on:)`
/// its own serial queue) send N events through `observe(on:strategy:)` to a checking
/// observer; the clock runs from subscribe to `onCompleted`. On scheduler `none` the same
/// producer threads and observer are joined by a peer framework's hand-off instead (`HandOff`).
struct ObserveOnThroughput: Workload {
    let name = WorkloadName.observeOnThroughput
    let summary = "N events from P producers (merge of subscribe(on:)) through observe(on:) to a checking observer"
    let unsupportedReason = "virtual time has no thread to hand events to"
    let axes: Set<Axis> = [.producers, .payload]
    let defaultEvents = 200_000

    init() {}

    let runsHandOffs = true

    /// Every registered scheduler but virtual time, with the observe(on:) strategies.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isVirtualTime ? [] : Registry.observeOnStrategies(on: scheduler)
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let shares = evenShares(of: benchCase.events, over: benchCase.producers)
        let consumer = ItemConsumer(expectedCounts: shares, invariants: invariants, checking: checking)
        let timeout = trialTimeout(events: benchCase.events)
        let payload = benchCase.payloadBytes

        if let outcome = try runHandOffTrial(benchCase, shares: shares, consumer: consumer, invariants: invariants) { return outcome }

        let duplicate = FaultInjection.current == .duplicate
        let target = try Registry.current.requireScheduler(benchCase.scheduler).instance(strategy: benchCase.strategy)
        let strategy = try benchCase.strategy.requireObserveOnStrategy(for: name)
        let sources = shares.enumerated().map { producer, count in
            Observable<Item>.create { observer in
                if duplicate && producer == 0 && count > 0 {
                    observer.onNext(Item(producer: 0, sequence: 0, payloadBytes: payload))
                }
                for sequence in 0..<count {
                    observer.onNext(Item(producer: producer, sequence: sequence, payloadBytes: payload))
                }
                observer.onCompleted()
                return Disposables.create()
            }
            .subscribe(on: SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "schedbench.producer.\(producer)"))
        }
        let end = ItemStreamEnd()
        let start = MonotonicClock.now()
        let subscription = end.subscribe(Observable.merge(sources).observe(on: target, strategy: strategy), consumer: consumer, invariants: invariants)
        let ended = end.waitForEnd(timeout: timeout, events: benchCase.events, consumer: consumer, invariants: invariants)
        subscription.dispose()
        consumer.disposed()
        consumer.finish()
        return TrialOutcome(elapsedNanos: ended - start, operations: benchCase.events)
    }
}
