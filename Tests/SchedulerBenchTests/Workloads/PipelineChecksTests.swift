import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

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

    /// A failed query's driver shows an empty list (`asDriver(onErrorJustReturn:)`); any
    /// other query shows its 20 results; results never go back to an older keystroke.
    func testTheListChecksWhatEachQueryShows() {
        let report = InvariantReport()
        let list = SearchResults(invariants: report, checking: true)
        func query(_ index: Int) -> PipelineSearch.Query { .init(text: "query \(index)", index: index, stamp: MonotonicClock.now()) }
        list.show(query(1), resultCount: 20, failed: false)
        list.show(query(3), resultCount: 0, failed: true)
        XCTAssertEqual(report.count, 0, report.descriptions.joined())
        list.show(query(5), resultCount: 20, failed: true)
        list.show(query(7), resultCount: 0, failed: false)
        list.show(query(6), resultCount: 20, failed: false)
        XCTAssertEqual(report.descriptions, [
            "20 results shown for 'query 5', whose request failed",
            "0 results parsed instead of 20",
            "results for keystroke 6 shown after those for keystroke 7",
        ])
        XCTAssertEqual(list.count, 5)
    }
}
