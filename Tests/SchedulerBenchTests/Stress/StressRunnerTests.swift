import Foundation
import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class StressRunnerTests: XCTestCase {
    /// Every scenario, a few iterations on the real core: nothing violated. Under
    /// ThreadSanitizer (`scripts/test.sh`) this is the short stress pass it must also keep clean.
    func testEveryScenarioPassesOnTheCore() throws {
        for scenario in StressScenarioName.allCases {
            let options = StressOptions(seed: 20_261_123, seconds: 1.5, iterations: 25, spinners: 1, hangTimeout: 30)
            let result = MainThreadDriver.run { StressRunner.run(scenario, options: options) }
            XCTAssertTrue(result.passed, "\(scenario.rawValue): \(result.samples)")
            XCTAssertGreaterThan(result.iterations, 0, scenario.rawValue)
            XCTAssertGreaterThan(result.operations, 0, scenario.rawValue)
            XCTAssertEqual(Set(result.violations.keys), Set(scenario.checks), scenario.rawValue)
        }
    }

    func testTheFirstViolationStopsTheScenarioAndNamesItsIteration() {
        let scenario = Scripted { iteration in
            if iteration.index == 3 { iteration.violation(.reorder, "scripted") }
            iteration.outcome("ran")
        }
        let result = StressRunner.run(.trampolineTree, instance: scenario, options: StressOptions(seed: 9, seconds: nil, iterations: 100))
        XCTAssertEqual(result.iterations, 4)
        XCTAssertEqual(result.failingIteration, 3)
        XCTAssertEqual(result.violations[.reorder], 1)
        XCTAssertEqual(result.outcomes, [StressOutcome(name: "ran", outcomeClass: .acceptable, count: 4)])
        XCTAssertEqual(result.replayCommand, "schedbench stress --scenario trampoline.tree --seed 9 --iterations 4 --threads 1")
    }

    func testAForbiddenOutcomeIsAlsoAViolation() {
        let scenario = Scripted { iteration in iteration.outcome("torn", forbidden: .duplicate) }
        let result = StressRunner.run(.mpscSpec, instance: scenario, options: StressOptions(seed: 1, seconds: nil, iterations: 5))
        XCTAssertEqual(result.violations[.duplicate], 1)
        XCTAssertEqual(result.outcomes.first?.outcomeClass, .forbidden)
    }

    /// A scenario that stops making progress is reported as a hang, naming the iteration
    /// and the scenario's threads, instead of running forever.
    func testTheWatchdogTurnsAHangIntoAViolation() {
        let release = DispatchSemaphore(value: 0)
        let scenario = Scripted { iteration in
            if iteration.index == 2 {
                iteration.concurrently(1, name: "stuck") { _, _ in release.wait() }
            }
        }
        let started = Date()
        let result = StressRunner.run(.mpscSpec, instance: scenario, options: StressOptions(seed: 1, seconds: nil, iterations: 10, hangTimeout: 0.5))
        release.signal()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertEqual(result.violations[.hang], 1)
        XCTAssertEqual(result.failingIteration, 2)
        XCTAssertTrue(result.samples.first?.detail.contains("no progress for 0.5 s in iteration 2") == true, "\(result.samples)")
    }

    /// Time the scenario's threads spent queued behind other processes is not a hang: a
    /// scenario silent for 1.2 s under a 0.5 s timeout passes while the process loses nine
    /// tenths of its time (recorded here as the meter would on a loaded machine).
    func testTimeLostToOtherProcessesIsNotAHang() {
        let release = DispatchSemaphore(value: 0)
        let starving = SharedFlag()
        let scenario = Scripted { iteration in
            guard iteration.index == 0 else { return }
            iteration.concurrently(1, name: "starved") { _, _ in
                let start = MonotonicClock.now()
                while !starving.isSet && MonotonicClock.now() - start < 5_000_000_000 { usleep(1_000) }
                _ = release.wait(timeout: .now() + 1.2)
            }
        }
        let starver = Thread {
            starving.set()
            let start = MonotonicClock.now()
            while MonotonicClock.now() - start < 2_000_000_000 {
                usleep(10_000)
                Starvation.record(9_000_000)
            }
        }
        starver.start()
        let result = StressRunner.run(.mpscSpec, instance: scenario, options: StressOptions(seed: 1, seconds: nil, iterations: 2, hangTimeout: 0.5))
        XCTAssertTrue(result.passed, "\(result.samples)")
    }

    func testBoundedWaitsAreNotHangs() {
        let scenario = Scripted { iteration in _ = iteration.wait(upTo: 0.8) { false } }
        let result = StressRunner.run(.mpscSpec, instance: scenario, options: StressOptions(seed: 1, seconds: nil, iterations: 2, hangTimeout: 0.5))
        XCTAssertTrue(result.passed, "\(result.samples)")
    }

    func testDecisionStreamsReplay() {
        var first = StressRandom(seed: 77, scenario: .mpscSpec, iteration: 12, stream: 3)
        var again = StressRandom(seed: 77, scenario: .mpscSpec, iteration: 12, stream: 3)
        var otherStream = StressRandom(seed: 77, scenario: .mpscSpec, iteration: 12, stream: 4)
        var otherScenario = StressRandom(seed: 77, scenario: .mainCounting, iteration: 12, stream: 3)
        let drawn = (0..<8).map { _ in first.next() }
        XCTAssertEqual(drawn, (0..<8).map { _ in again.next() })
        XCTAssertNotEqual(drawn, (0..<8).map { _ in otherStream.next() })
        XCTAssertNotEqual(drawn, (0..<8).map { _ in otherScenario.next() })
    }

    /// The trampoline model agrees with the trampoline on trees it generated: the scenario's
    /// reference is right, so a difference it reports is the core's.
    func testTheTrampolineModelMatchesTheTrampoline() {
        for seed in 1...300 as ClosedRange<UInt64> {
            var random = StressRandom(seed: seed)
            let tree = TrampolineTreeScenario.generate(&random, size: Int.random(in: 1...80, using: &random))
            XCTAssertEqual(TrampolineTreeScenario.execute(tree), tree.order, "seed \(seed)")
        }
    }

    /// Shaped trees queue exactly k·C − 1, k·C or k·C + 1 actions behind the root (C the
    /// queue's slots per chunk), and the model still agrees with the trampoline on them.
    func testShapedTreesQueueAChunkMultipleAndMatchTheTrampoline() {
        let chunk = CurrentThreadScheduler.queueChunkCapacity
        for (seed, fanOut) in [chunk - 1, chunk, chunk + 1, 2 * chunk, 3 * chunk + 1].enumerated() {
            var random = StressRandom(seed: UInt64(seed + 1))
            let tree = TrampolineTreeScenario.generate(&random, size: fanOut + 30, rootFanOut: fanOut)
            XCTAssertEqual(tree.operations[0]?.count, fanOut, "the root queues exactly \(fanOut)")
            XCTAssertEqual(TrampolineTreeScenario.execute(tree), tree.order, "fan-out \(fanOut)")
        }
    }

    func testTheTrampolineComparisonNamesTheKindOfDifference() {
        var random = StressRandom(seed: 3)
        var tree = TrampolineTreeScenario.Tree()
        tree.order = [0, 1, 2, 3]
        _ = random.next()
        for (ran, kind) in [
            ([0, 1, 9, 2, 3], ViolationKind.afterDispose), ([0, 2, 1, 3], .reorder), ([0, 1, 1, 2, 3], .duplicate), ([0, 1], .lost),
        ] {
            let iteration = StressIteration(scenario: .trampolineTree, index: 0, seed: 1, heartbeat: Heartbeat())
            TrampolineTreeScenario.compare(ran, tree, thread: 0, iteration)
            XCTAssertEqual(iteration.collected().violations.map(\.kind), [kind], "\(ran)")
        }
    }
}

/// A scenario whose iterations run a closure.
private final class Scripted: StressScenario {
    let body: (StressIteration) -> Void
    init(_ body: @escaping (StressIteration) -> Void) { self.body = body }
    func run(_ iteration: StressIteration) { body(iteration) }
}
