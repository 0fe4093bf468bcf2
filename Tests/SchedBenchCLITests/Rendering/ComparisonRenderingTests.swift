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
        XCTAssertTrue(table.contains("the change is the mean of the rounds' NEW ÷ BASE ratios"), table)
    }

    /// Defect: a gate row printed "111  111  +21.4%": two medians that differ, rounded alike,
    /// beside a paired change. They now get the digits that tell them apart, and a paired
    /// table says what its change is.
    func testMediansThatDifferNeverPrintAlike() {
        XCTAssertTrue(ComparisonRendering.medians(111.2, 110.9) == ("111.2", "110.9"))
        XCTAssertTrue(ComparisonRendering.medians(111.04, 111.02) == ("111.04", "111.02"))
        XCTAssertTrue(ComparisonRendering.medians(250, 300) == ("250", "300"))
        XCTAssertTrue(ComparisonRendering.medians(111, 111) == ("111", "111"), "equal values stay as they are")
        let unpaired = try? ComparisonRendering.render(comparison(), format: .table)
        XCTAssertFalse(unpaired?.contains("NEW ÷ BASE ratios") ?? true, "only a paired table explains its change")
    }

    func testCSVIsTheComparisonFile() throws {
        // Printed with its own line break, which the file ends with.
        XCTAssertEqual(try ComparisonRendering.render(comparison(), format: .csv) + "\n", try ComparisonFile.render(comparison()))
    }

    /// A count left undecided because it moved between two processes says so, with the move
    /// and the limit it passed.
    func testAnUnstableCountSaysWhyItWasLeftUndecided() throws {
        let benchCase = BenchCase(
            suite: "instructions", workload: .scheduleThroughput, scheduler: .concurrent, strategy: .perAction,
            producers: 1, events: 20_000, payloadBytes: 0, rateHz: 0)
        func result(_ instructions: Double, _ repeatDifference: Double) -> CaseResult {
            CaseResult(
                benchCase: benchCase,
                trials: (1...2).map {
                    TrialRecord(
                        benchCase: benchCase, trial: $0,
                        metrics: [.instructionsPerEvent: instructions, .instructionsRepeatDifference: repeatDifference])
                })
        }
        let comparison = Comparison(
            base: [result(2_965, 0.004)], new: [result(3_529, 0.052)], thresholds: Thresholds(metrics: [.instructionsPerEvent: 0.03]),
            metrics: [.instructionsPerEvent], paired: true)
        let markdown = try ComparisonRendering.render(comparison, format: .markdown)
        XCTAssertTrue(
            markdown.contains("| inconclusive (unstable count: two counts of one build, in two processes, differed by 5.2%, more than 1.0%) |"), markdown)
    }
}
