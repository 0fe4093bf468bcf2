import XCTest

@testable import RxSchedulers

final class SpinWaitTests: XCTestCase {
    func testPollReturnsWhatAppearsByItsLastPoll() {
        var polls = 0
        let started = MonotonicClock.now()
        let value = SpinWait.poll { () -> Int? in
            polls += 1
            return polls == SpinWait.polls ? 42 : nil
        }
        let elapsed = MonotonicClock.now() - started
        XCTAssertEqual(value, 42)
        XCTAssertEqual(polls, SpinWait.polls)
        XCTAssertGreaterThanOrEqual(elapsed, UInt64(SpinWait.polls) * SpinWait.interval)
    }

    func testPollGivesUpAfterItsBudget() {
        var polls = 0
        let started = MonotonicClock.now()
        let value = SpinWait.poll { () -> Int? in
            polls += 1
            return nil
        }
        let elapsed = MonotonicClock.now() - started
        XCTAssertNil(value)
        XCTAssertEqual(polls, SpinWait.polls)
        XCTAssertGreaterThanOrEqual(elapsed, UInt64(SpinWait.polls) * SpinWait.interval)
    }

    func testPollUntilSaysWhetherAnAttemptSucceeded() {
        var attempts = 0
        XCTAssertTrue(
            SpinWait.poll(until: {
                attempts += 1
                return attempts == SpinWait.polls
            }))
        XCTAssertEqual(attempts, SpinWait.polls)
        attempts = 0
        XCTAssertFalse(
            SpinWait.poll(until: {
                attempts += 1
                return false
            }))
        XCTAssertEqual(attempts, SpinWait.polls)
    }

    func testSpinLastsAtLeastItsDuration() {
        let started = MonotonicClock.now()
        SpinWait.spin(nanoseconds: 50_000)
        XCTAssertGreaterThanOrEqual(MonotonicClock.now() - started, 50_000)
    }
}
