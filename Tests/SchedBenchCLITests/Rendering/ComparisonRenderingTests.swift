import SchedulerBench
import XCTest

@testable import SchedBenchCLI

final class ComparisonRenderingTests: XCTestCase {
    private func comparison(new: [Double] = [130, 131, 129]) -> Comparison {
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
            producers: 1, events: 1_000, payloadBytes: 0, rateHz: 0)
        func result(_ nanos: [Double]) -> CaseResult {
            CaseResult(
                benchCase: benchCase,
                trials: nanos.enumerated().map {
                    TrialRecord(benchCase: benchCase, trial: $0.offset + 1, metrics: [.nsPerEvent: $0.element])
                })
        }
        return Comparison(base: [result([100, 101, 99])], new: [result(new)], thresholds: Thresholds())
    }

    func testMarkdownAndTableShowTheVerdictAndTheChange() throws {
        let markdown = try ComparisonRendering.render(comparison(), format: .markdown)
        XCTAssertTrue(markdown.contains("| observeOn.throughput | serial | drain |") && markdown.contains("**regressed**"), markdown)
        let table = try ComparisonRendering.render(comparison(), format: .table)
        XCTAssertTrue(table.contains("1 regressed") && table.contains("+30.0%"), table)
        XCTAssertTrue(table.hasPrefix("compare: regressed (family-wise over 1 tests (Holm), 90.0% confidence)"), table)
    }

    /// Too noisy to tell: the row says how large a change this run could have shown.
    func testAnInconclusiveRowSaysWhatTheRunCouldHaveDetected() throws {
        let table = try ComparisonRendering.render(comparison(new: [90, 140, 110]), format: .table)
        XCTAssertTrue(table.hasPrefix("compare: inconclusive"), table)
        let row = try XCTUnwrap(table.split(separator: "\n").last)
        XCTAssertTrue(row.contains("inconclusive (detects ≥ ") && row.hasSuffix("% worse)"), table)
    }

    func testCSVIsTheComparisonFile() throws {
        XCTAssertEqual(try ComparisonRendering.render(comparison(), format: .csv), try ComparisonFile.render(comparison()))
    }
}
