import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class HistoryRenderingTests: XCTestCase {
    func testASparklineSpansTheSeriesRange() {
        XCTAssertEqual(Sparkline.render([1, 2, 3, 4, 5, 6, 7, 8]), "▁▂▃▄▅▆▇█")
        XCTAssertEqual(Sparkline.render([10, 0, 10]), "█▁█")
        XCTAssertEqual(Sparkline.render([3, 3, 3]), "▄▄▄", "a flat series sits in the middle")
        XCTAssertEqual(Sparkline.render([]), "")
    }

    func testATestbedLabelIsShortAndStable() {
        let key = "cpu=A; cores=2; kernel=6.1; swift=6.3.1; build=release; governor=none; cpu_limit=none"
        XCTAssertEqual(HistoryRendering.label(key), HistoryRendering.label(key))
        XCTAssertEqual(HistoryRendering.label(key).count, 8)
        XCTAssertNotEqual(HistoryRendering.label(key), HistoryRendering.label(key.replacingOccurrences(of: "cores=2", with: "cores=4")))
    }

    func testATrendShowsEachRunAndItsChange() {
        let benchCase = BenchCase(
            suite: "", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain, producers: 1, events: 1_000, payloadBytes: 0,
            rateHz: 0)
        let points = [100.0, 110, 99].enumerated().map { index, value in
            History.TrendPoint(runID: "run-\(index)", startedAt: "2026-11-0\(index + 1)T00:00:00Z", commit: "c\(index)", value: value, trials: 5)
        }
        let text = HistoryRendering.trend(
            [History.TrendSeries(benchCase: benchCase, testbed: "cpu=A", points: points)], metric: .nsPerEvent, last: 2)
        XCTAssertTrue(text.contains("2 of 3 runs"), text)
        XCTAssertTrue(text.contains("█▁  (lower is better)"), text)
        XCTAssertFalse(text.contains("run-0"), "only the last 2")
        XCTAssertTrue(text.contains("-10.0%"), "110 → 99: \(text)")
        XCTAssertTrue(text.contains("\(HistoryRendering.label("cpu=A")): cpu=A"), "the legend: \(text)")
    }
}
