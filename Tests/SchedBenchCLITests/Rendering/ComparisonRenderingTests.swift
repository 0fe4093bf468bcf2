import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

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

    /// Two trials that differ by 10× make a bound of millions of percent; the row says
    /// the run could detect nothing rather than print that number.
    func testARowTooNoisyToDetectAnythingSaysSo() throws {
        let table = try ComparisonRendering.render(comparison(new: [10, 1_000]), format: .table)
        let row = try XCTUnwrap(table.split(separator: "\n").last)
        XCTAssertTrue(row.hasSuffix("inconclusive (too noisy to detect even 10× worse)"), table)
        XCTAssertFalse(table.contains("detects ≥"), table)
    }

    /// A gate's rows are paired by round, and the heading says so; a counting metric with
    /// one value a side says why it is inconclusive.
    func testPairedAndSingleValueRowsSayHowTheyWereDecided() throws {
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
            producers: 4, events: 1_000, payloadBytes: 0, rateHz: 0)
        func result(_ nanos: [Double], bytes: Double) -> CaseResult {
            CaseResult(
                benchCase: benchCase,
                trials: nanos.enumerated().map { TrialRecord(benchCase: benchCase, trial: $0.offset + 1, metrics: [.nsPerEvent: $0.element]) }
                    + [TrialRecord(benchCase: benchCase, trial: 0, metrics: [.bytesPerEvent: bytes])])
        }
        let paired = Comparison(
            base: [result([100, 200, 150], bytes: 71.9)], new: [result([101, 202, 151], bytes: 190)], thresholds: Thresholds(),
            metrics: [.nsPerEvent, .bytesPerEvent], paired: true)
        let table = try ComparisonRendering.render(paired, format: .table)
        XCTAssertTrue(table.hasPrefix("compare: inconclusive (family-wise over 1 tests (Holm), 90.0% confidence, trials paired by round)"), table)
        XCTAssertTrue(table.contains("inconclusive (one value a side: no interval)"), table)
        XCTAssertTrue(table.contains("): 0 regressed, 0 improved, 1 unchanged, 1 inconclusive"), table)
    }

    func testCSVIsTheComparisonFile() throws {
        XCTAssertEqual(try ComparisonRendering.render(comparison(), format: .csv), try ComparisonFile.render(comparison()))
    }
}
