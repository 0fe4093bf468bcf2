import XCTest

@testable import BenchAnalysis
@testable import BenchMeasure
@testable import BenchModel
@testable import BenchStress
@testable import BenchWorkflows

/// The checks `pipeline.search` adds for the article's side effects: each can fail.
final class PipelineChecksTests: XCTestCase {
    func testARequestRunTwiceIsReported() {
        let report = InvariantReport()
        let requests = SearchRequests(invariants: report)
        requests.started("query 1")
        requests.ended()
        requests.started("query 2")
        requests.ended()
        requests.checkAllEnded()
        XCTAssertEqual(report.count, 0, report.descriptions.joined())
        requests.started("query 1")
        XCTAssertEqual(report.count, 1)
        XCTAssertTrue(report.descriptions[0].contains("ran twice"), report.descriptions[0])
    }

    func testASpinnerLeftUpOrTakenDownTwiceIsReported() {
        let report = InvariantReport()
        let requests = SearchRequests(invariants: report)
        requests.started("query 1")
        requests.checkAllEnded()
        XCTAssertEqual(report.descriptions, ["1 spinner(s) still shown after the search was disposed"])
        requests.ended()
        requests.ended()
        XCTAssertEqual(report.count, 2)
        XCTAssertTrue(report.descriptions[1].contains("never shown"), report.descriptions[1])
    }

    func testOneTextInFiveFailsButNeverTheFinalOne() {
        let texts = (0..<100).map { PipelineSearch.text(forKeystroke: 2 * $0) }
        XCTAssertEqual(texts.filter { PipelineSearch.fails($0, final: "query 99") }.count, 20)
        XCTAssertTrue(PipelineSearch.fails("query 3", final: "query 99"))
        XCTAssertFalse(PipelineSearch.fails("query 3", final: "query 3"))
    }
}
