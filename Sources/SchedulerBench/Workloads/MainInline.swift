import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `main.inline`: N `schedule` calls made on the main queue with nothing enqueued. The
/// counting `main` scheduler runs each inline; `mainAsync` enqueues each (RxSwift's
/// `asyncInstance`); `concurrentMain` runs inline on main. The clock stops when the last
/// action has run. Checks order and exactly-once.
struct MainInline: Workload {
    let name = WorkloadName.mainInline
    let summary = "N schedule calls made on the main queue: inline (counting) vs always async"
    let unsupportedReason = "only main-queue schedulers run inline on main"
    let axes: Set<Axis> = []
    let defaultEvents = 1_000_000

    init() {}

    /// The schedulers made for it (the main-queue ones).
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] { scheduler.offers[name] ?? [] }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        // Made to be called from any thread (Workload: the core's schedulers and Sendable).
        nonisolated(unsafe) let scheduler = try Registry.current.requireScheduler(benchCase.scheduler).instance()
        let events = benchCase.events
        let checker = checking ? SequenceChecker(expectedCounts: [events], report: invariants) : nil
        let remaining = Atomic<Int>(events)
        let finishedAt = Atomic<UInt64>(0)
        let done = DispatchSemaphore(value: 0)
        let startedAt = Atomic<UInt64>(0)

        // The driver thread is not main: hop onto the main queue (drained by the main thread).
        MainQueue.async {
            startedAt.store(MonotonicClock.now(), ordering: .relaxed)
            for sequence in 0..<events {
                _ = scheduler.schedule(sequence) { sequence in
                    checker?.observe(producer: 0, sequence: sequence)
                    ValidationSlowdown.perEvent()  // empty in normal builds
                    if remaining.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
                        finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                        done.signal()
                    }
                    return Disposables.create()
                }
            }
        }
        let completed = done.wait(
            seconds: trialTimeout(events: events), orReport: invariants,
            "\(remaining.load(ordering: .relaxed)) of \(events) main-queue actions never ran (is the main thread running its RunLoop?)")
        checker?.finish()
        let start = startedAt.load(ordering: .relaxed)
        let end = completed ? finishedAt.load(ordering: .relaxed) : MonotonicClock.now()
        return TrialOutcome(elapsedNanos: end - start, operations: events)
    }
}
