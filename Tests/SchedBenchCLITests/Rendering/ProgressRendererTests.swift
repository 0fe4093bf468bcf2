import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ProgressRendererTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
        producers: 1, events: 1_000, payloadBytes: 0, rateHz: 0)

    func testACorrectnessFailureIsDescribedWithItsSamples() {
        var result = CaseResult(
            benchCase: benchCase,
            trials: [
                TrialRecord(benchCase: benchCase, trial: 1, metrics: [.invariantViolations: 2, .resourcesLeaked: 3])
            ], violationSamples: [ViolationSample(phase: .warmup, trial: 1, description: "producer 0: event 4 delivered again")])
        result.overhead = HarnessOverhead(pairs: [(on: 102, off: 100), (on: 101, off: 100), (on: 103, off: 100)])
        let lines = ProgressRenderer.describe(result)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("harness overhead +2.0%"), lines[0])
        XCTAssertTrue(lines[1].contains("2 invariant violations, 3 Rx resources leaked") && lines[1].contains("warmup trial 1: producer 0: event 4 delivered again"), lines[1])
    }

    /// A description from a file reaches the terminal escaped and on one line; past
    /// `ViolationRendering.shown` the rest are counted, not printed.
    func testViolationLinesAreVisibleOneLineEachAndBounded() {
        let samples = (0..<12).map { ViolationSample(round: 3, phase: .timed, trial: 2, description: "bad \u{1B}[2J\nline \($0)") }
        let lines = ViolationRendering.lines(samples, indent: "  ")
        XCTAssertEqual(lines.count, ViolationRendering.shown + 1)
        XCTAssertEqual(lines[0], "  round 3, timed trial 2: bad \\u{1B}[2J line 0")
        XCTAssertEqual(lines.last, "  … and 2 more in violations.csv")
    }

    func testAHealthyCaseSaysNothing() {
        let result = CaseResult(benchCase: benchCase, trials: [TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 50])])
        XCTAssertEqual(ProgressRenderer.describe(result), [])
    }
}
