import Dispatch
import Foundation
import RxSchedulers
import Synchronization
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// `scheduler.contract` passes the core's schedulers and a correct user scheduler, and
/// catches each class of broken contract in a user's scheduler.
final class SchedulerContractScenarioTests: XCTestCase {
    private func stress(_ name: String, _ contracts: SchedulerContracts, fault: FaultyScheduler.Fault?, iterations: Int = 60) -> StressResult {
        var registry = Registry.builtIns
        registry.scheduler(name, summary: "test", contracts: contracts) { FaultyScheduler(fault: fault) }
        Registry.install(registry)
        defer { Registry.install(Registry.builtIns) }
        return StressRunner.run(
            .schedulerContract, options: StressOptions(seed: 11, seconds: 30, iterations: iterations, spinners: 0, scheduler: SchedulerName(name)))
    }

    func testTheCoresSchedulersKeepTheirContracts() {
        for scheduler in [SchedulerName.serial, .concurrent, .currentThread, .operationQueue] {
            let result = StressRunner.run(
                .schedulerContract, options: StressOptions(seed: 5, seconds: 30, iterations: 40, spinners: 0, scheduler: scheduler))
            XCTAssertTrue(result.passed, "\(scheduler.rawValue): \(result.samples)")
            XCTAssertEqual(result.scheduler, scheduler)
            XCTAssertTrue(result.replayCommand == nil)
        }
    }

    func testACorrectUserSchedulerPasses() {
        let result = stress("correct", [.serial], fault: nil)
        XCTAssertTrue(result.passed, "\(result.samples)")
        XCTAssertEqual(result.iterations, 60)
    }

    func testASchedulerThatClaimsSerialButOverlapsFails() {
        let result = stress("overlapping", [.serial], fault: .concurrent)
        XCTAssertFalse(result.passed)
        XCTAssertGreaterThan((result.violations[.overlap] ?? 0) + (result.violations[.reorder] ?? 0) + (result.violations[.afterDispose] ?? 0), 0)
        XCTAssertTrue(result.replayCommand?.contains("--scheduler overlapping") ?? false, result.replayCommand ?? "no replay")
    }

    func testTheSameSchedulerClaimingNothingPasses() {
        let result = stress("honestConcurrent", [], fault: .concurrent)
        XCTAssertTrue(result.passed, "\(result.samples)")
    }

    func testLostActionsAreCaught() {
        XCTAssertGreaterThan(stress("losing", [.serial], fault: .dropsEvery(97)).violations[.lost] ?? 0, 0)
    }

    func testDuplicatedActionsAreCaught() {
        XCTAssertGreaterThan(stress("repeating", [.serial], fault: .repeatsEvery(97)).violations[.duplicate] ?? 0, 0)
    }

    func testAnActionRunAfterAnOrderedDisposeIsCaught() {
        XCTAssertGreaterThan(stress("ignoresDispose", [.serial], fault: .ignoresDispose).violations[.afterDispose] ?? 0, 0)
    }

    func testEarlyTimedActionsAreCaught() {
        let result = stress("early", [.serial], fault: .ignoresDueTime)
        XCTAssertGreaterThan((result.violations[.early] ?? 0), 0, "\(result.samples)")
    }
}

/// A scheduler over serial dispatch queues with one fault chosen by the test.
private final class FaultyScheduler: SchedulerType, @unchecked Sendable {
    enum Fault {
        /// Runs actions on the concurrent global queue.
        case concurrent
        /// Never runs one action in `n`.
        case dropsEvery(Int)
        /// Runs one action in `n` twice.
        case repeatsEvery(Int)
        /// Runs actions whose disposable was disposed.
        case ignoresDispose
        /// Runs timed actions at once.
        case ignoresDueTime
    }

    private let fault: Fault?
    private let queue: DispatchQueue
    private let count = Atomic<Int>(0)

    init(fault: Fault?) {
        self.fault = fault
        if case .concurrent = fault {
            queue = DispatchQueue(label: "faulty", attributes: .concurrent)
        } else {
            queue = DispatchQueue(label: "faulty")
        }
    }

    var now: RxTime { Date() }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let index = count.wrappingAdd(1, ordering: .relaxed).newValue
        if case .dropsEvery(let n) = fault, index % n == 0 { return disposable }
        let times: Int
        if case .repeatsEvery(let n) = fault, index % n == 0 { times = 2 } else { times = 1 }
        nonisolated(unsafe) let action = action
        nonisolated(unsafe) let state = state
        let ignoresDispose: Bool
        if case .ignoresDispose = fault { ignoresDispose = true } else { ignoresDispose = false }
        queue.async {
            for _ in 0..<times where ignoresDispose || !disposable.isDisposed { _ = action(state) }
        }
        return disposable
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if case .ignoresDueTime = fault { return schedule(state, action: action) }
        let disposable = SingleAssignmentDisposable()
        nonisolated(unsafe) let action = action
        nonisolated(unsafe) let state = state
        queue.asyncAfter(deadline: .now() + dueTime) {
            if !disposable.isDisposed { disposable.setDisposable(action(state)) }
        }
        return disposable
    }
}
