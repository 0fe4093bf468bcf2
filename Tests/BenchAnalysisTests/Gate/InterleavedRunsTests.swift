import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// How `schedbench gate` turns each round's trials into one paired value per case and
/// metric, and how long it lets a round's child run.
final class InterleavedRunsTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain, producers: 1, events: 1_000,
        payloadBytes: 0, rateHz: 0)

    /// One round's result: timed trials 1… with these ns/event, and a counting trial.
    private func round(nanos: [Double], allocs: Double, violations: [Double]? = nil) -> [CaseResult] {
        var trials = nanos.enumerated().map { index, value in
            TrialRecord(benchCase: benchCase, trial: index + 1, metrics: [.nsPerEvent: value, .invariantViolations: violations?[index] ?? 0])
        }
        trials.append(TrialRecord(benchCase: benchCase, trial: TrialRecord.countingTrial, metrics: [.allocsPerEvent: allocs]))
        return [CaseResult(benchCase: benchCase, trials: trials)]
    }

    func testEachRoundBecomesOneTrialWithItsCounts() {
        let first = round(nanos: [100], allocs: 2, violations: [1])
        let second = round(nanos: [110], allocs: 3, violations: [2])
        let merged = InterleavedRuns.merge(InterleavedRuns.merge([], first, round: 1), second, round: 2)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].trials.map(\.trial).sorted(), [1, 2], "each round's counting trial joins its timed trial")
        XCTAssertEqual(merged[0].values(.nsPerEvent), [100, 110])
        XCTAssertEqual(merged[0].values(.allocsPerEvent), [2, 3])
        XCTAssertEqual(merged[0].values(.invariantViolations), [1, 2])
    }

    func testARoundsTimedTrialsBecomeTheirGeometricMean() throws {
        let merged = InterleavedRuns.merge([], round(nanos: [100, 400, 250], allocs: 2, violations: [0, 1, 2]), round: 1)
        XCTAssertEqual(merged[0].trials.map(\.trial), [1], "one trial per round, however many ran")
        let ns = try XCTUnwrap(merged[0].values(.nsPerEvent).first)
        XCTAssertEqual(ns, pow(100 * 400 * 250, 1.0 / 3), accuracy: 1e-9)
        XCTAssertEqual(merged[0].values(.allocsPerEvent), [2], "the counting trial is kept as it is")
        XCTAssertEqual(merged[0].values(.invariantViolations), [3], "violations of every trial add up")
    }

    func testSummariesOfCountsWithZerosAreArithmeticAndOfOneTrialAreThatTrial() {
        let summary = InterleavedRuns.summarize([
            [.ctxInvoluntary: 0, .nsPerEvent: 10, .resourcesLeaked: 0],
            [.ctxInvoluntary: 3, .nsPerEvent: 40, .resourcesLeaked: 1],
        ])
        XCTAssertEqual(summary[.ctxInvoluntary], 1.5, "a zero has no logarithm: the arithmetic mean")
        XCTAssertEqual(summary[.nsPerEvent]!, 20, accuracy: 1e-12)
        XCTAssertEqual(summary[.resourcesLeaked], 1, "a leak in any trial is a leak")
        XCTAssertEqual(InterleavedRuns.summarize([[.nsPerEvent: 7]]), [.nsPerEvent: 7])
        XCTAssertEqual(InterleavedRuns.summarize([]), [:])
        XCTAssertEqual(
            InterleavedRuns.summarize([[.nsPerEvent: 10], [.latencyP99: 5]]), [.nsPerEvent: 10, .latencyP99: 5],
            "a metric only some trials have is summarized over those")
    }

    /// Only a gate that counts instructions and compares nothing else runs a round's two
    /// sides at once, each with half the processors' counting children (at least one, at
    /// most four).
    func testOnlyAnInstructionsGateRunsBothSidesAtOnceOnHalfTheProcessorsEach() {
        var counting = RunOptions()
        counting.countInstructions = true
        XCTAssertTrue(InterleavedRuns.sidesCanRunTogether(counting, comparing: [.instructionsPerEvent]))
        XCTAssertFalse(InterleavedRuns.sidesCanRunTogether(counting, comparing: [.instructionsPerEvent, .nsPerEvent]))
        XCTAssertFalse(InterleavedRuns.sidesCanRunTogether(counting, comparing: Metric.comparedByDefault))
        XCTAssertFalse(InterleavedRuns.sidesCanRunTogether(RunOptions(), comparing: [.instructionsPerEvent]))

        var runs = InterleavedRuns(
            baseline: "a", candidate: "b", cases: [benchCase], options: counting, rounds: 2, directory: URL(fileURLWithPath: "/tmp"),
            trialsPerRound: 3)
        XCTAssertNil(runs.roundOptions(position: 0).countingChildren, "one after the other: each side has every processor")
        XCTAssertNil(runs.roundOptions(position: 0).countingProcessors)
        XCTAssertEqual(runs.roundOptions(position: 0).trials, 3)
        runs.sidesTogether = true
        for (processors, each) in [(1, 1), (2, 1), (3, 1), (4, 2), (16, 4)] {
            runs.processors = Array(0..<processors)
            XCTAssertEqual(runs.roundOptions(position: 0).countingChildren, each, "\(processors) processors")
            XCTAssertEqual(runs.roundOptions(position: 1).countingChildren, each, "\(processors) processors")
        }
    }

    /// Side by side, each side's counting children keep to processors of their own: the
    /// side that goes first takes the first of them, the other the next.
    func testSideBySideEachSideCountsOnProcessorsOfItsOwn() {
        var counting = RunOptions()
        counting.countInstructions = true
        var runs = InterleavedRuns(
            baseline: "a", candidate: "b", cases: [benchCase], options: counting, rounds: 2, directory: URL(fileURLWithPath: "/tmp"))
        runs.sidesTogether = true
        runs.processors = [2, 3, 5, 7, 11]
        XCTAssertEqual(runs.roundOptions(position: 0).countingProcessors, [2, 3])
        XCTAssertEqual(runs.roundOptions(position: 1).countingProcessors, [5, 7])
        runs.processors = [4, 9]
        XCTAssertEqual(runs.roundOptions(position: 0).countingProcessors, [4])
        XCTAssertEqual(runs.roundOptions(position: 1).countingProcessors, [9])
        runs.processors = [6]
        XCTAssertEqual(runs.roundOptions(position: 0).countingProcessors, [6], "one processor: both sides share it")
        XCTAssertEqual(runs.roundOptions(position: 1).countingProcessors, [6])
    }

    func testAGateRoundsTimeoutFollowsTheFirstRound() {
        XCTAssertEqual(InterleavedRuns.timeout(explicit: nil, default: 1_200, firstRoundSeconds: []), 1_200, "the first round gets the default")
        XCTAssertEqual(InterleavedRuns.timeout(explicit: nil, default: 1_200, firstRoundSeconds: [2, 30]), 300, "then ten times the slowest")
        XCTAssertEqual(InterleavedRuns.timeout(explicit: nil, default: 1_200, firstRoundSeconds: [0.5, 1]), 60, "but at least a minute")
        XCTAssertEqual(InterleavedRuns.timeout(explicit: 5, default: 1_200, firstRoundSeconds: [30]), 5, "unless given")
    }
}
