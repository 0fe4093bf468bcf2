import SchedulerBench
import XCTest

@testable import SchedBenchCLI

final class ComparisonRenderingTests: XCTestCase {
    private func comparison() -> Comparison {
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
        return Comparison(base: [result([100, 101, 99])], new: [result([130, 131, 129])], thresholds: Thresholds())
    }

    func testMarkdownAndTableShowTheVerdictAndTheChange() throws {
        let markdown = try ComparisonRendering.render(comparison(), format: .markdown)
        XCTAssertTrue(markdown.contains("| observeOn.throughput | serial | drain |") && markdown.contains("**regressed**"), markdown)
        let table = try ComparisonRendering.render(comparison(), format: .table)
        XCTAssertTrue(table.contains("1 regressed") && table.contains("+30.0%"), table)
    }

    func testCSVIsTheComparisonFile() throws {
        XCTAssertEqual(try ComparisonRendering.render(comparison(), format: .csv), try ComparisonFile.render(comparison()))
    }
}
