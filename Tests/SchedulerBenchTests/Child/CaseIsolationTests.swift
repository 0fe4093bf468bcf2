import XCTest

@testable import SchedulerBench

final class CaseIsolationTests: XCTestCase {
    /// The two counts of one process: 0 apart when equal, else their range over their mean.
    func testRepeatDifferenceIsTheRangeOverTheMean() {
        XCTAssertEqual(CaseIsolation.repeatDifference([120, 120]), 0)
        XCTAssertEqual(CaseIsolation.repeatDifference([3_300, 3_700]), 400.0 / 3_500, accuracy: 1e-12)
        XCTAssertEqual(CaseIsolation.repeatDifference([3_700, 3_300]), 400.0 / 3_500, accuracy: 1e-12, "whichever came first")
        XCTAssertEqual(CaseIsolation.repeatDifference([0, 0]), 0)
        XCTAssertEqual(CaseIsolation.repeatDifference([]), 0)
    }
}
