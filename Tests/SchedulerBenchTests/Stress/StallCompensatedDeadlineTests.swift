import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class StallCompensatedDeadlineTests: XCTestCase {
    private let millisecond: UInt64 = 1_000_000

    func testAWaitThatRunsOnTimeEndsAtItsDeadline() {
        var deadline = StallCompensatedDeadline(seconds: 2, now: 0)
        var now: UInt64 = 0
        var expired = false
        while !expired {
            now += 50 * millisecond
            expired = deadline.hasPassed(now: now, afterPause: 50 * millisecond)
        }
        XCTAssertEqual(now, 2_050 * millisecond, "the first reading past 2 s")
        XCTAssertEqual(deadline.extended, 0)
    }

    /// The process was held off the CPU for 5 s in the middle: the wait gets that time back.
    func testAStallMovesTheDeadlineByTheTimeLost() {
        var deadline = StallCompensatedDeadline(seconds: 2, now: 0)
        XCTAssertFalse(deadline.hasPassed(now: 1_000 * millisecond, afterPause: 1_000 * millisecond))
        XCTAssertFalse(deadline.hasPassed(now: 6_050 * millisecond, afterPause: 50 * millisecond), "a 5 s stall is not the work's fault")
        XCTAssertEqual(deadline.extended, 5_000 * millisecond)
        XCTAssertFalse(deadline.hasPassed(now: 6_900 * millisecond, afterPause: 850 * millisecond))
        XCTAssertTrue(deadline.hasPassed(now: 7_100 * millisecond, afterPause: 200 * millisecond))
    }

    func testSmallOvershootsAndEndlessStallsAreBounded() {
        var jittery = StallCompensatedDeadline(seconds: 1, now: 0)
        XCTAssertFalse(jittery.hasPassed(now: 65 * millisecond, afterPause: 50 * millisecond))
        XCTAssertEqual(jittery.extended, 0, "15 ms late is scheduling jitter, not a stall")
        var starved = StallCompensatedDeadline(seconds: 0.5, now: 0)
        XCTAssertFalse(starved.hasPassed(now: 20_000 * millisecond, afterPause: 50 * millisecond))
        XCTAssertTrue(starved.hasPassed(now: 60_000 * millisecond, afterPause: 50 * millisecond), "at most 30 s more in all")
        XCTAssertEqual(starved.extended, 30_000 * millisecond)
        var longer = StallCompensatedDeadline(seconds: 2, now: 0)
        XCTAssertFalse(longer.hasPassed(now: 90_000 * millisecond, afterPause: 50 * millisecond))
        XCTAssertTrue(longer.hasPassed(now: 110_000 * millisecond, afterPause: 50 * millisecond), "at most 50 times the wait")
        XCTAssertEqual(longer.extended, 100_000 * millisecond)
    }
}
