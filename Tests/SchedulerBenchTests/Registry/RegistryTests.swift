import Dispatch
import Foundation
import RxSchedulers
import Synchronization
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The registry: a user's entries are registered like the built-ins and run wherever they fit.
final class RegistryTests: XCTestCase {
    /// The built-ins and one user scheduler, installed for the test and removed after it.
    private func withRegistry(_ register: (inout Registry) -> Void, _ body: () throws -> Void) rethrows {
        var registry = Registry.builtIns
        register(&registry)
        Registry.install(registry)
        defer { Registry.install(Registry.builtIns) }
        try body()
    }

    func testAUserSchedulerRunsInEveryWorkloadThatFitsIt() {
        withRegistry({ registry in
            registry.scheduler("userSerial", summary: "a serial queue of the user's", contracts: [.serial]) {
                SerialDispatchQueueScheduler(internalSerialQueueName: "user")
            }
            registry.scheduler("userImmediate", summary: "a scheduler that is not timed", contracts: []) {
                OperationQueueScheduler(operationQueue: OperationQueue())
            }
        }) {
            let timed = SchedulerName("userSerial")
            let immediate = SchedulerName("userImmediate")
            for workload in [WorkloadName.scheduleThroughput, .observeOnThroughput, .observeOnLatency, .subscribeOnCycle, .periodicCatchUp, .pipelineSearch] {
                XCTAssertTrue(Workloads.named(workload).schedulers().contains(timed), workload.rawValue)
            }
            XCTAssertEqual(Workloads.named(.observeOnThroughput).strategies(on: timed), [.reference, .drain])
            XCTAssertEqual(Workloads.named(.periodicCatchUp).strategies(on: timed), [.rxRecursive])
            XCTAssertFalse(Workloads.named(.periodicCatchUp).schedulers().contains(immediate), "periodic needs a SchedulerType")
            for workload in [WorkloadName.trampolineNested, .mainInline, .mainFlood, .mainMixed] {
                XCTAssertFalse(Workloads.named(workload).schedulers().contains(timed), "\(workload.rawValue) is made for built-ins")
            }
            XCTAssertEqual(SchedulerName.registered.suffix(3), [timed, immediate, .none], "user entries list after the built-ins, none last")
        }
    }

    func testAUserSchedulerIsMeasuredAndItsClaimsChecked() throws {
        try withRegistry({ registry in
            registry.scheduler("honest", summary: "serial", contracts: [.serial]) { SerialDispatchQueueScheduler(internalSerialQueueName: "honest") }
            // Claims serial, and runs one producer's first two actions in the wrong order, every time.
            registry.scheduler("liar", summary: "claims serial", contracts: [.serial]) { SwappingScheduler() }
        }) {
            for (name, violates) in [("honest", false), ("liar", true)] {
                let benchCase = BenchCase(
                    suite: "test", workload: .scheduleThroughput, scheduler: SchedulerName(name), strategy: .none, producers: 4, events: 40_000,
                    payloadBytes: 0, rateHz: 0)
                let report = InvariantReport()
                let outcome = try Workloads.named(.scheduleThroughput).runTrial(benchCase, invariants: report, checking: true)
                XCTAssertEqual(outcome.operations, 40_000)
                if violates {
                    XCTAssertGreaterThan(report.count, 0, "a scheduler that claims .serial and reorders is reported")
                    XCTAssertTrue(report.descriptions.contains { $0.contains("out of order") || $0.contains("reordered") }, report.descriptions.joined(separator: "; "))
                } else {
                    XCTAssertEqual(report.count, 0, report.descriptions.joined(separator: "; "))
                }
            }
        }
    }

    func testAHandOffRunsAsAStrategyOfSchedulerNone() throws {
        try withRegistry({ registry in
            registry.handOff("userQueue", summary: "a serial DispatchQueue, hand-written") { deliver in QueueHandOff(deliver: deliver) }
        }) {
            let strategy = StrategyName("userQueue")
            XCTAssertEqual(Workloads.named(.observeOnThroughput).strategies(on: .none).last, strategy)
            XCTAssertEqual(Registry.current.strategy(strategy)?.axis, .peer)
            let benchCase = BenchCase(
                suite: "test", workload: .observeOnThroughput, scheduler: .none, strategy: strategy, producers: 3, events: 3_000,
                payloadBytes: 8, rateHz: 0)
            let report = InvariantReport()
            let outcome = try Workloads.named(.observeOnThroughput).runTrial(benchCase, invariants: report, checking: true)
            XCTAssertEqual(outcome.operations, 3_000)
            XCTAssertEqual(report.count, 0, report.descriptions.joined(separator: "; "))
        }
    }

    func testAUserWorkloadRunsOnTheSchedulersThatMakeItsPromises() throws {
        try withRegistry({ registry in
            registry.workload("user.burst", summary: "bursts of schedules", requires: [.serial], axes: [.producers], defaultEvents: 500) { trial in
                let scheduler = trial.makeScheduler()
                let checker = trial.sequenceChecker(expectedCounts: [trial.events])
                let done = DispatchSemaphore(value: 0)
                let start = DispatchTime.now().uptimeNanoseconds
                for sequence in 0..<trial.events {
                    _ = scheduler.schedule(sequence) { sequence in
                        checker.observe(producer: 0, sequence: sequence == 7 ? 8 : sequence)  // one deliberate gap
                        if sequence == trial.events - 1 { done.signal() }
                        return Disposables.create()
                    }
                }
                if done.wait(timeout: .now() + 10) == .timedOut { trial.violation("the last action never ran") }
                checker.finish()
                return TrialMeasurement(elapsedNanos: DispatchTime.now().uptimeNanoseconds - start, operations: trial.events)
            }
        }) {
            let workload = Workloads.named(WorkloadName("user.burst"))
            XCTAssertTrue(workload.schedulers().contains(.serial))
            XCTAssertFalse(workload.schedulers().contains(.concurrent), "concurrent does not claim .serial")
            XCTAssertFalse(workload.schedulers().contains(.none))
            let plan = RunPlan(suite: Suite(name: "test", summary: "", entries: []), workloads: [WorkloadName("user.burst")], schedulers: [.serial])
            let benchCase = try XCTUnwrap(plan.expand().cases.first)
            XCTAssertEqual(benchCase.events, 500)
            let report = InvariantReport()
            _ = try workload.runTrial(benchCase, invariants: report, checking: true)
            XCTAssertGreaterThan(report.count, 0, "the checker the trial got reports into the case")
        }
    }

    func testNamesThatResultsFilesCannotHoldAreRefused() {
        XCTAssertNil(NameRules.problem(with: "myLoop"))
        XCTAssertNil(NameRules.problem(with: "nio.eventLoop-2_b"))
        XCTAssertNotNil(NameRules.problem(with: ""))
        XCTAssertNotNil(NameRules.problem(with: "a,b"))
        XCTAssertNotNil(NameRules.problem(with: "a/b"))
        XCTAssertNotNil(NameRules.problem(with: "a b"))
        XCTAssertNotNil(NameRules.problem(with: String(repeating: "x", count: 65)))
    }

    /// A name taken, reserved or unfit is refused with a message naming it (the process
    /// then ends with exit 1: `HardeningTests.testARegistrationErrorEndsTheExecutableWithItsMessage`).
    func testARegistrationThatCannotStandSaysWhy() {
        let registry = Registry.builtIns
        XCTAssertNil(registry.problem(registering: "myLoop", as: "scheduler"))
        XCTAssertEqual(registry.problem(registering: "serial", as: "scheduler"), "cannot register scheduler 'serial': it is registered already")
        XCTAssertEqual(registry.problem(registering: "drain", as: "strategy"), "cannot register strategy 'drain': it is registered already")
        XCTAssertEqual(
            registry.problem(registering: "observeOn.latency", as: "workload"), "cannot register workload 'observeOn.latency': it is registered already")
        XCTAssertEqual(
            registry.problem(registering: "none", as: "scheduler"), "cannot register scheduler 'none': the name is reserved (the hand-offs' scheduler)")
        XCTAssertEqual(
            registry.problem(registering: "my loop", as: "workload"),
            "cannot register workload 'my loop': the name may hold only letters, digits, '.', '_' and '-'")
    }

    /// The listing order reports and tables use (`StrategyName.listingOrder`) is the order
    /// the built-in executable registers its strategies in.
    func testTheListingOrderIsTheBuiltInsRegistrationOrder() {
        let registered = Registry.builtIns.strategies.map(\.name)
        XCTAssertEqual(StrategyName.listingOrder.filter(registered.contains), registered)
    }
}

/// A hand-off as a user writes one: a serial queue and a cancellation flag.
private final class QueueHandOff: HandOff, Sendable {
    private let queue = DispatchQueue(label: "registry-tests.handoff")
    private let deliver: @Sendable (Item) -> Void
    private let cancelled = Atomic<Bool>(false)

    init(deliver: @escaping @Sendable (Item) -> Void) { self.deliver = deliver }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        for index in 0..<count {
            let next = item(index)
            queue.async { [self] in if !cancelled.load(ordering: .relaxed) { deliver(next) } }
        }
    }

    func finish(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// A scheduler that breaks `.serial` deterministically: its actions run one at a time on a
/// serial queue, but the first action ever scheduled is held back and runs right after the
/// next action its own thread schedules, so that thread's first two actions swap.
/// (Overlaps on a concurrent queue are likely on 2 cores, not certain; a swap is certain.)
private final class SwappingScheduler: ImmediateSchedulerType, @unchecked Sendable {
    private let queue = DispatchQueue(label: "swapping")
    private struct Held { var thread: pthread_t; var run: () -> Void }
    private enum State { case waitingForFirst, holding(Held), done }
    // An NSLock, not `Synchronization.Mutex`: ThreadSanitizer cannot see the Mutex's futex
    // path on Linux, so every access it guards would be reported as a race.
    private let lock = NSLock()
    nonisolated(unsafe) private var state = State.waitingForFirst

    func schedule<StateType>(_ value: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        nonisolated(unsafe) let run = { _ = action(value) }
        let me = pthread_self()
        let heldBack: (() -> Void)?? = lock.withLock {
            switch state {
            case .waitingForFirst:
                state = .holding(Held(thread: me, run: run))
                return .some(nil)  // hold this one
            case .holding(let held) where pthread_equal(held.thread, me) != 0:
                state = .done
                return .some(held.run)  // run this one, then the held one
            default:
                return nil  // run this one
            }
        }
        switch heldBack {
        case .some(nil):
            break
        case .some(.some(let first)):
            queue.async { run(); first() }
        case nil:
            queue.async { run() }
        }
        return Disposables.create()
    }
}
