import BenchAnalysis
import BenchMeasure
import BenchModel
import BenchStress
import BenchWorkflows
import XCTest

@testable import SchedBenchCLI

final class ProgressRendererTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
        producers: 1, events: 1_000, payloadBytes: 0, rateHz: 0)

    func testACorrectnessFailureIsDescribedWithItsSamples() {
        var result = CaseResult(
            benchCase: benchCase,
            trials: [
                TrialRecord(benchCase: benchCase, trial: 1, metrics: [.invariantViolations: 2, .resourcesLeaked: 3])
            ], violationSamples: ["producer 0: event 4 delivered again"])
        result.overhead = HarnessOverhead(pairs: [(on: 102, off: 100), (on: 101, off: 100), (on: 103, off: 100)])
        let lines = ProgressRenderer.describe(result)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("harness overhead +2.0%"), lines[0])
        XCTAssertTrue(lines[1].contains("2 invariant violations, 3 Rx resources leaked") && lines[1].contains("event 4 delivered again"), lines[1])
    }

    func testAHealthyCaseSaysNothing() {
        let result = CaseResult(benchCase: benchCase, trials: [TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 50])])
        XCTAssertEqual(ProgressRenderer.describe(result), [])
    }
}
