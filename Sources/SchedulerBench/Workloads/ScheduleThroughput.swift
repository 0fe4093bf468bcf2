import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `schedule.throughput`: P threads call `schedule` N/P times each; the clock stops when the
/// last action has run. Checks every action runs exactly once, and per scheduler what it
/// promises: serial ones never overlap and keep each producer's order.
struct ScheduleThroughput: Workload {
    let name = WorkloadName.scheduleThroughput
    let summary = "N schedule calls from P threads; actions/s until the last one has run"
    let unsupportedReason = "needs an Rx scheduler"
    let axes: Set<Axis> = [.producers]
    let defaultEvents = 200_000

    init() {}

    /// Every registered scheduler, with the dispatch strategies it offers (or its one way).
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.offers[name] ?? [.none]
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        // Made to be called from any thread (Workload: the core's schedulers and Sendable).
        let registered = try Registry.current.requireScheduler(benchCase.scheduler)
        nonisolated(unsafe) let scheduler = registered.instance(strategy: benchCase.strategy)
        let shares = evenShares(of: benchCase.events, over: benchCase.producers)
        let checker = checking && registered.contracts.keepsProducerOrder ? SequenceChecker(expectedCounts: shares, report: invariants) : nil
        let overlap = checking && registered.contracts.isSerial ? OverlapDetector(report: invariants) : nil
        let remaining = Atomic<Int>(benchCase.events)
        let finishedAt = Atomic<UInt64>(0)
        let done = DispatchSemaphore(value: 0)

        @Sendable func action(producer: Int, sequence: Int) -> Disposable {
            overlap?.enter()
            checker?.observe(producer: producer, sequence: sequence)
            ValidationSlowdown.perEvent()  // empty in normal builds
            overlap?.leave()
            if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                done.signal()
            }
            return Disposables.create()
        }

        if let virtual = scheduler as? HistoricalScheduler {
            // Virtual time is single-threaded: schedule everything, then run the clock.
            guard benchCase.producers == 1 else { throw BenchError.caseCannotRun("virtual time runs one producer") }
            let start = MonotonicClock.now()
            for sequence in 0..<benchCase.events {
                _ = virtual.schedule(sequence) { action(producer: 0, sequence: $0) }
            }
            virtual.start()
            checker?.finish()
            return TrialOutcome(elapsedNanos: MonotonicClock.now() - start, operations: benchCase.events)
        }

        let producers = try ProducerThreads(count: benchCase.producers, name: "schedbench.producer") { producer in
            for sequence in 0..<shares[producer] {
                _ = scheduler.schedule(sequence) { action(producer: producer, sequence: $0) }
            }
        }
        let start = producers.start()
        let timeout = trialTimeout(events: benchCase.events)
        _ = producers.join(timeout: timeout)
        let completed = done.wait(
            seconds: timeout, orReport: invariants,
            "\(remaining.load(ordering: .relaxed)) of \(benchCase.events) actions never ran")
        if checking { checker?.finish() }
        let end = completed ? finishedAt.load(ordering: .relaxed) : MonotonicClock.now()
        return TrialOutcome(elapsedNanos: end - start, operations: benchCase.events)
    }

    func skipReason(_ benchCase: BenchCase) -> String? {
        let virtual = Registry.current.scheduler(benchCase.scheduler)?.isVirtualTime ?? false
        return virtual && benchCase.producers > 1 ? "virtual time is single-threaded: producers must be 1" : nil
    }
}
