import Foundation
import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Each workload that does not need the main thread's run loop, run in-process at a tiny
/// size: it must complete, count its operations, report no violation and, once its
/// asynchronous teardown has finished, leave no Rx resource alive. (Main-queue
/// workloads run end to end through the CLI, whose main thread runs the RunLoop.)
final class WorkloadTests: XCTestCase {
    private func run(
        _ workload: WorkloadName, _ scheduler: SchedulerName, _ strategy: StrategyName,
        producers: Int = 1, events: Int, rate: Int = 0
    ) throws -> TrialOutcome {
        let benchCase = BenchCase(
            suite: "test", workload: workload, scheduler: scheduler, strategy: strategy,
            producers: producers, events: events, payloadBytes: 16, rateHz: rate)
        let report = InvariantReport()
        let resourcesBefore = Resources.total
        let outcome = try Workloads.named(workload).runTrial(benchCase, invariants: report, checking: true)
        XCTAssertEqual(report.count, 0, "\(benchCase): \(report.descriptions)")
        XCTAssertGreaterThan(outcome.elapsedNanos, 0)
        assertResourcesReturn(to: resourcesBefore, after: benchCase)
        return outcome
    }

    /// Teardown may still be running on the trial's queues (or on the main queue, which
    /// this thread drains): gives it two seconds, as the harness's leak check does.
    private func assertResourcesReturn(to baseline: Int32, after benchCase: BenchCase) {
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != baseline && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.002))
        }
        XCTAssertEqual(Resources.total, baseline, "\(benchCase): Rx resources still alive after the trial")
    }

    func testThroughputWorkloadsOnEveryOffMainVariant() throws {
        for (scheduler, strategy) in ObserveOnThroughput().variants() where Registry.current.scheduler(scheduler)?.usesMainQueue != true {
            XCTAssertEqual(try run(.observeOnThroughput, scheduler, strategy, producers: 3, events: 600).operations, 600)
        }
        for (scheduler, strategy) in MergeThroughput().variants() where Registry.current.scheduler(scheduler)?.usesMainQueue != true {
            XCTAssertEqual(try run(.mergeThroughput, scheduler, strategy, producers: 3, events: 600).operations, 600)
        }
        for scheduler in [SchedulerName.currentThread, .serial, .concurrent, .operationQueue] {
            XCTAssertEqual(try run(.scheduleThroughput, scheduler, .none, producers: 2, events: 400).operations, 400)
        }
        XCTAssertEqual(try run(.scheduleThroughput, .virtual, .none, events: 400).operations, 400)
        XCTAssertEqual(try run(.trampolineNested, .currentThread, .none, events: 1_000).operations, 1_000)
        XCTAssertEqual(try run(.subscribeOnCycle, .serial, .none, events: 50).operations, 50)
    }

    func testLatencyWorkloadRecordsEveryEventAndDisposesMidStream() throws {
        // Twice each: trials alternate between disposing inside the observer and from a
        // separate block on the observing queue.
        for strategy in [StrategyName.reference, .referenceGeneric, .drain, .reference, .referenceGeneric, .drain] {
            let outcome = try run(.observeOnLatency, .serial, strategy, events: 300, rate: 20_000)
            XCTAssertEqual(outcome.latency?.count, 300, "only the measured events are recorded, not the tail")
        }
        for strategy in StrategyName.handOffs {
            XCTAssertEqual(try run(.observeOnLatency, .none, strategy, events: 300, rate: 20_000).latency?.count, 300, "\(strategy)")
        }
    }

    func testPeriodicCatchUpDeliversTicksInOrder() throws {
        let outcome = try run(.periodicCatchUp, .serial, .catchUp, events: 60, rate: 500)
        XCTAssertEqual(outcome.metrics[.ticksExpected], 60)
        // How many ticks arrive within the trial's 120 ms depends on how much of the
        // machine the test gets (the ordering is checked by the run's invariants); the
        // catch-up policy's delivery of every tick is tested in virtual time in the core.
        XCTAssertGreaterThan(outcome.metrics[.ticksDelivered] ?? 0, 0)
        XCTAssertLessThanOrEqual(outcome.metrics[.ticksDelivered] ?? .infinity, 60)
        // Each stall lasts three periods: when it ends, at least two more ticks are due
        // than have been delivered.
        XCTAssertGreaterThanOrEqual(outcome.metrics[.tickBacklogPeak] ?? 0, 2)
        XCTAssertLessThanOrEqual(outcome.metrics[.tickBacklogPeak] ?? .infinity, 60)
    }

    /// RxSwift's own state machine runs in real time on every scheduler that schedules in
    /// time, dispatch ones included, and the other policies where they differ.
    func testRxRecursiveIsOfferedOnEveryRealTimeScheduler() throws {
        let periodic = PeriodicCatchUp()
        for scheduler in SchedulerName.registered where scheduler != .virtual && scheduler != .none {
            let timed = scheduler != .currentThread && scheduler != .operationQueue
            XCTAssertEqual(
                periodic.strategies(on: scheduler).contains(.rxRecursive) && periodic.schedulers().contains(scheduler), timed, "\(scheduler)")
        }
        XCTAssertEqual(periodic.strategies(on: .serial), [.catchUp, .coalesce, .fixedRate, .rxRecursive])
        let outcome = try run(.periodicCatchUp, .concurrent, .rxRecursive, events: 60, rate: 500)
        XCTAssertGreaterThan(outcome.metrics[.ticksDelivered] ?? 0, 0, "ticks arrive (how many in 120 ms depends on the machine's load)")
        XCTAssertNotNil(outcome.metrics[.tickBacklogPeak])
    }

    /// Every scheduler × strategy each workload lists runs once at a tiny size (the default
    /// suite once crashed on a combination no test had run). The trials run on a background
    /// thread while this test's thread — XCTest's main thread — drains the main queue.
    func testEveryListedCombinationRuns() throws {
        XCTAssertTrue(Thread.isMainThread)
        for workload in Workloads.all {
            for (scheduler, strategy) in workload.variants() {
                let events = workload.name == .mainFlood ? 200 : 12
                let benchCase = BenchCase(
                    suite: "test", workload: workload.name, scheduler: scheduler, strategy: strategy,
                    producers: 1, events: events, payloadBytes: 0, rateHz: workload.defaultRateHz)
                if workload.skipReason(benchCase) != nil { continue }
                let report = InvariantReport()
                let resourcesBefore = Resources.total
                let finished = DispatchSemaphore(value: 0)
                let outcome = OutcomeBox()
                Thread.detachNewThread {
                    outcome.value = Result { try workload.runTrial(benchCase, invariants: report, checking: true) }
                    finished.signal()
                }
                let deadline = Date().addingTimeInterval(30)
                while finished.wait(timeout: .now()) == .timedOut && Date() < deadline {
                    RunLoop.main.run(until: Date().addingTimeInterval(0.005))
                }
                XCTAssertGreaterThan(try XCTUnwrap(outcome.value, "\(benchCase) did not finish").get().operations, 0, "\(benchCase)")
                XCTAssertEqual(report.count, 0, "\(benchCase): \(report.descriptions)")
                assertResourcesReturn(to: resourcesBefore, after: benchCase)
            }
        }
    }
}

/// Hands a trial's outcome from its thread to the test; the semaphore orders the accesses.
private final class OutcomeBox: @unchecked Sendable {
    var value: Result<TrialOutcome, Error>?
}
