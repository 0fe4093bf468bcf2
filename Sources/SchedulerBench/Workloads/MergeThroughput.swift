import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `merge.throughput`: fan-in alone. P threads each send N/P events into a subject of
/// their own, and `Observable.merge` of the subjects delivers them to a checking consumer:
/// on scheduler `none` with strategy `direct`, straight (on whichever sending thread holds
/// the merge's emission), so the case costs the merge and nothing else; on a scheduler,
/// through `observe(on:strategy:)` first, as an app hands a merged stream to a queue. On
/// `none` the hand-offs carry the same threads' events for scale (raw `DispatchQueue.async`
/// from P threads, peer frameworks). The clock runs from the producers' start to the
/// merge's `onCompleted`.
///
/// Beside `observeOn.throughput` (P `create` sources, each `subscribe(on:)` its own queue,
/// merged, then observed on), it says how much of many producers' cost is the merge's.
struct MergeThroughput: Workload {
    let name = WorkloadName.mergeThroughput
    let summary =
        "N events from P threads, each into its own subject, merged: straight to a checking consumer (none/direct) or through observe(on:)"
    let unsupportedReason = "virtual time has no thread to hand events to"
    let axes: Set<Axis> = [.producers, .payload]
    let defaultEvents = 200_000
    let runsHandOffs = true
    let strategiesOnNone: [StrategyName] = [.direct]

    init() {}

    /// Every registered scheduler but virtual time, with the observe(on:) strategies.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isVirtualTime ? [] : Registry.observeOnStrategies(on: scheduler)
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let shares = evenShares(of: benchCase.events, over: benchCase.producers)
        let consumer = ItemConsumer(expectedCounts: shares, invariants: invariants, checking: checking)
        if let outcome = try runHandOffTrial(benchCase, shares: shares, consumer: consumer, invariants: invariants) { return outcome }

        let timeout = trialTimeout(events: benchCase.events)
        let payload = benchCase.payloadBytes
        // Each subject is sent to from its own producer thread only: its calls are serial.
        let subjects = shares.map { _ in PublishSubject<Item>() }
        var merged = Observable.merge(subjects.map { $0.asObservable() })
        if benchCase.strategy != .direct {
            let target = try Registry.current.requireScheduler(benchCase.scheduler).instance(strategy: benchCase.strategy)
            merged = merged.observe(on: target, strategy: try benchCase.strategy.requireObserveOnStrategy(for: name))
        }
        let end = ItemStreamEnd()
        let subscription = end.subscribe(merged, consumer: consumer, invariants: invariants)
        let duplicate = FaultInjection.current == .duplicate
        let producers = try ProducerThreads(count: benchCase.producers, name: "schedbench.producer") { producer in
            let subject = subjects[producer]
            // The injected fault: the first producer sends its first event twice.
            if duplicate && producer == 0 && shares[0] > 0 { subject.onNext(Item(producer: 0, sequence: 0, payloadBytes: payload)) }
            for sequence in 0..<shares[producer] {
                subject.onNext(Item(producer: producer, sequence: sequence, payloadBytes: payload))
            }
            subject.onCompleted()
        }
        let start = producers.start()
        let ended = end.waitForEnd(timeout: timeout, events: benchCase.events, consumer: consumer, invariants: invariants)
        _ = producers.join(timeout: timeout)
        subscription.dispose()
        consumer.disposed()
        consumer.finish()
        return TrialOutcome(elapsedNanos: ended - start, operations: benchCase.events)
    }
}

extension Workload {
    /// A trial of a fan-in workload on scheduler `none` through the hand-off its strategy
    /// names: P producer threads send their shares into it, `consumer` receives; nil when
    /// the strategy names no hand-off. The clock runs from the producers' start to the last
    /// delivery.
    func runHandOffTrial(_ benchCase: BenchCase, shares: [Int], consumer: ItemConsumer, invariants: InvariantReport) throws -> TrialOutcome? {
        guard let handOff = try Registry.current.startHandOff(benchCase.strategy, deliver: { consumer.consume($0) }) else { return nil }
        let timeout = trialTimeout(events: benchCase.events)
        let payload = benchCase.payloadBytes
        let duplicate = FaultInjection.current == .duplicate
        let producers = try ProducerThreads(count: benchCase.producers, name: "schedbench.producer") { producer in
            // The injected fault: the first producer sends its first event twice.
            let extra = duplicate && producer == 0 && shares[0] > 0 ? 1 : 0
            handOff.produce(count: shares[producer] + extra) { index in
                Item(producer: producer, sequence: max(0, index - extra), payloadBytes: payload)
            }
        }
        let start = producers.start()
        if !producers.join(timeout: timeout) || !handOff.finish(timeout: timeout) {
            invariants.record("timed out after \(Int(timeout)) s with \(consumer.delivered) of \(benchCase.events) events delivered")
        }
        let end = MonotonicClock.now()
        consumer.finish()
        return TrialOutcome(elapsedNanos: end - start, operations: benchCase.events)
    }
}
