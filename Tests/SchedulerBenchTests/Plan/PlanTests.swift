import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class PlanTests: XCTestCase {
    func testQuickSuiteCoversEverySchedulerAndObserveOnStrategyAtOneAndFourProducers() {
        let cases = RunPlan(suite: .quick).expand().cases
        let throughput = cases.filter { $0.workload == .observeOnThroughput }
        for (scheduler, strategy) in ObserveOnThroughput().variants() {
            for producers in [1, 4] {
                XCTAssertTrue(
                    throughput.contains { $0.scheduler == scheduler && $0.strategy == strategy && $0.producers == producers },
                    "\(scheduler) \(strategy) p=\(producers)")
            }
        }
        // One latency case on the tuned strategy; the one through a peer framework
        // (openCombine) is there where the peers are registered (PeersTests).
        XCTAssertEqual(cases.filter { $0.workload == .observeOnLatency }.map { "\($0.scheduler)/\($0.strategy)" }, ["serial/drain"])
        XCTAssertEqual(cases.filter { $0.workload == .periodicCatchUp }.count, 1)
    }

    /// Batched dispatch on the serial and concurrent schedulers is selectable
    /// (`run --workload schedule.throughput --strategy batched`), beside their per-action default.
    func testBatchedDispatchIsSelectableOnSerialAndConcurrent() {
        let plan = RunPlan(suite: .quick, workloads: [.scheduleThroughput], schedulers: [.serial, .concurrent, .currentThread], strategies: [.batched])
        let (cases, skipped) = plan.expand()
        XCTAssertEqual(cases.map { "\($0.scheduler.rawValue)/\($0.strategy.rawValue)" }, ["serial/batched", "concurrent/batched"])
        XCTAssertEqual(skipped.map(\.what), ["schedule.throughput on currentThread with batched"])
        XCTAssertEqual(ScheduleThroughput().strategies(on: .serial), [.perAction, .batched])
    }

    /// The strategy axes select independently where the code supports them: a composite
    /// (`drain+batched`) runs an observe(on:) strategy or periodic policy over a dispatch
    /// mode, only when named; a composite that means the plain name is the plain name; one
    /// whose parts are not an algorithm and a dispatch is a usage error.
    func testCompositeStrategiesSelectAnAlgorithmOverADispatch() throws {
        let named = try RunPlan(
            PlanRequest(
                suite: "quick", workloads: [.observeOnThroughput, .periodicCatchUp], schedulers: [.serial, .main],
                strategies: [StrategyName("drain+batched"), StrategyName("drain+perAction"), StrategyName("catchUp+batched")], producers: [2]))
        let (cases, skipped) = named.expand()
        XCTAssertEqual(
            cases.map { "\($0.workload.rawValue) \($0.scheduler.rawValue)/\($0.strategy.rawValue)" },
            [
                "observeOn.throughput serial/drain+batched", "observeOn.throughput serial/drain", "observeOn.throughput main/drain",
                "observeOn.throughput main/drain+perAction",
                "periodic.catchUp serial/catchUp+batched", "periodic.catchUp main/catchUp",
            ])
        XCTAssertTrue(skipped.contains { $0.what == "observeOn.throughput on serial with catchUp+batched" }, "\(skipped)")

        // The scheduler a composite case makes dispatches as it says; the algorithm is its primary.
        let serial = try XCTUnwrap(Registry.current.scheduler(.serial))
        XCTAssertEqual((serial.instance(strategy: StrategyName("drain+batched")) as? SerialDispatchQueueScheduler)?.dispatch, .batched)
        XCTAssertEqual((serial.instance(strategy: .drain) as? SerialDispatchQueueScheduler)?.dispatch, .perAction)
        XCTAssertEqual((serial.instance(strategy: StrategyName("reference+batched")) as? SerialDispatchQueueScheduler)?.dispatch, .batched)
        XCTAssertEqual(StrategyName("drain+batched").observeOnStrategy, .drain)
        XCTAssertEqual(StrategyName("catchUp+batched").periodicPolicy, .catchUp)

        // No suite runs a composite unasked.
        XCTAssertFalse(RunPlan(suite: .full).expand().cases.contains { $0.strategy.dispatchPart != nil })

        for (name, words) in [("drain+fast", "a composite is an observe(on:) strategy or periodic policy, '+', then a dispatch"), ("batched+drain", "a composite is")] {
            XCTAssertThrowsError(try RunPlan(PlanRequest(suite: "quick", strategies: [StrategyName(name)]))) { error in
                guard case BenchError.usage(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains(words) && message.contains(name), message)
            }
        }
    }

    /// The scaling suite sweeps 1–16 producers over fan-in alone (straight and into
    /// observe(on:)), the merged hand-off and dispatch, each beside raw GCD from as many threads.
    func testScalingSuiteSweepsTheMultiProducerPathsBesideRawGCD() {
        let cases = RunPlan(suite: .scaling).expand().cases
        for (workload, scheduler, strategy) in [
            (WorkloadName.mergeThroughput, SchedulerName.none, StrategyName.direct), (.mergeThroughput, .serial, .drain),
            (.mergeThroughput, .none, .gcd), (.observeOnThroughput, .serial, .drain), (.observeOnThroughput, .concurrent, .reference),
            (.observeOnThroughput, .none, .gcd), (.scheduleThroughput, .serial, .batched), (.scheduleThroughput, .concurrent, .perAction),
        ] {
            let producers = cases.filter { $0.workload == workload && $0.scheduler == scheduler && $0.strategy == strategy }.map(\.producers)
            XCTAssertEqual(producers, Suite.producerSweep, "\(workload) \(scheduler)/\(strategy)")
        }
        XCTAssertFalse(cases.contains { $0.workload == .mergeThroughput && $0.scheduler == .main }, "main-queue schedulers are not in the sweep")
    }

    /// The instruction suite covers every throughput workload on each scheduler and
    /// strategy the quick suite's observe(on:) cases use (the peers included), at one producer.
    func testInstructionSuiteCoversTheQuickSuitesSchedulersOnEveryThroughputWorkload() {
        let cases = RunPlan(suite: .instructions).expand().cases
        let throughput: Set<WorkloadName> = [.scheduleThroughput, .observeOnThroughput, .trampolineNested, .mainInline, .subscribeOnCycle]
        XCTAssertEqual(Set(cases.map(\.workload)), throughput)
        XCTAssertEqual(Set(cases.map(\.producers)), [1])
        let quick = RunPlan(suite: .quick).expand().cases.filter { $0.workload == .observeOnThroughput }
        XCTAssertEqual(
            Set(cases.filter { $0.workload == .observeOnThroughput }.map { "\($0.scheduler)/\($0.strategy)" }),
            Set(quick.map { "\($0.scheduler)/\($0.strategy)" }))
        func events(_ workload: WorkloadName, _ scheduler: SchedulerName, _ strategy: StrategyName) -> Int? {
            cases.first { $0.workload == workload && $0.scheduler == scheduler && $0.strategy == strategy }?.events
        }
        XCTAssertEqual(events(.scheduleThroughput, .serial, .perAction), 20_000)
        XCTAssertEqual(events(.scheduleThroughput, .virtual, .none), 3_000, "a scheduler's own size")
        XCTAssertEqual(events(.observeOnThroughput, .serial, .drain), 10_000)
        XCTAssertEqual(events(.observeOnThroughput, .serial, .referenceGeneric), 5_000, "a strategy's own size")
        XCTAssertEqual(events(.subscribeOnCycle, .serial, .none), 2_000)
        XCTAssertEqual(events(.subscribeOnCycle, .mainAsync, .none), 20_000, "the hand-off whose count is sampled, ten times the cycles")
    }

    /// A run's `--events` sizes every case, whatever sizes its suite gives a scheduler or a
    /// strategy; a strategy's size wins over its scheduler's.
    func testARunsEventsReplaceTheSuitesSizesForOneSchedulerOrStrategy() {
        let sized = RunPlan(suite: .instructions, workloads: [.scheduleThroughput], schedulers: [.virtual], events: 77).expand().cases
        XCTAssertEqual(sized.map(\.events), [77])
        let entry = Suite.Entry(workload: .observeOnThroughput, events: 10, eventsOn: [.serial: 20], eventsWith: [.drain: 30])
        XCTAssertEqual(entry.events(on: .serial, with: .drain), 30)
        XCTAssertEqual(entry.events(on: .serial, with: .reference), 20)
        XCTAssertEqual(entry.events(on: .concurrent, with: .reference), 10)
    }

    func testDefaultSuiteRunsEveryWorkload() {
        let workloads = Set(RunPlan(suite: .standard).expand().cases.map(\.workload))
        XCTAssertEqual(workloads, Set(WorkloadName.registered))
    }

    /// Every scheduler × strategy a workload offers (the peers, `rxRecursive` and
    /// `main.mixed`'s included) runs in the default suite.
    func testDefaultSuiteRunsEveryVariantOfEveryWorkload() {
        let cases = RunPlan(suite: .standard).expand().cases
        for workload in Workloads.all {
            for (scheduler, strategy) in workload.variants() {
                XCTAssertTrue(
                    cases.contains { $0.workload == workload.name && $0.scheduler == scheduler && $0.strategy == strategy },
                    "\(workload.name.rawValue) \(scheduler)/\(strategy)")
            }
        }
    }

    func testFiltersNarrowAndAxesReplace() {
        let plan = RunPlan(
            suite: .quick, workloads: [.observeOnThroughput], schedulers: [.serial],
            strategies: [.drain], producers: [2, 8], events: 123, payloads: [64])
        let cases = plan.expand().cases
        XCTAssertEqual(cases.map(\.producers), [2, 8])
        XCTAssertTrue(cases.allSatisfy { $0.events == 123 && $0.payloadBytes == 64 && $0.scheduler == .serial && $0.strategy == .drain })
    }

    func testCombinationsThatDoNotApplyAreSkippedWithAReason() {
        let plan = RunPlan(
            suite: .quick, workloads: [.observeOnThroughput, .scheduleThroughput],
            schedulers: [.virtual], producers: [1, 4])
        let (cases, skipped) = plan.expand()
        XCTAssertEqual(cases.map(\.workload), [.scheduleThroughput])
        XCTAssertEqual(cases.map(\.producers), [1])
        XCTAssertTrue(skipped.contains { $0.what == "observeOn.throughput on virtual" && $0.reason.contains("virtual time") })
        XCTAssertTrue(skipped.contains { $0.reason.contains("single-threaded") })
    }

    /// Defect: the quick suite's two `observeOn.latency` entries each skipped `virtual`, and
    /// the dry run said so twice.
    func testASkipIsSaidOnce() {
        let skipped = RunPlan(suite: .quick, schedulers: [.virtual]).expand().skipped
        XCTAssertEqual(skipped.filter { $0.what == "observeOn.latency on virtual" }.count, 1, "\(skipped)")
        XCTAssertEqual(skipped.count, Set(skipped.map(\.description)).count, "\(skipped)")
    }

    func testAWorkloadOutsideTheSuiteRunsAtItsDefaults() {
        let cases = RunPlan(suite: .quick, workloads: [.trampolineNested]).expand().cases
        XCTAssertEqual(cases.count, 1)
        XCTAssertEqual(cases.first?.events, TrampolineNested().defaultEvents)
    }
}
