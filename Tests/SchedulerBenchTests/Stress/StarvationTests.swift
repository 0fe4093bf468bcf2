import Foundation
import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel

/// Time lost to other processes is told apart from the scenario's own waiting.
final class StarvationTests: XCTestCase {
    private let millisecond: UInt64 = 1_000_000

    func testWaitingBehindOtherProcessesIsLost() {
        // One thread runnable all along, six busy loops holding both processors.
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 97 * millisecond, othersShare: 0.97), 94_090_000)
        // Three threads runnable: never more than the interval.
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 290 * millisecond, othersShare: 0.97), 100 * millisecond)
    }

    func testTheProcessesOwnQueueingAndBlockingAreNotLost() {
        // Three spinning threads on two idle processors wait for each other.
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 100 * millisecond, othersShare: 0), 0)
        // A blocked process waits in no run queue.
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 0, othersShare: 1), 0)
        // A watchdog that wakes twice and waits 2 ms each time loses 4 ms, not the interval.
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 4 * millisecond, othersShare: 1), 4 * millisecond)
        XCTAssertEqual(Starvation.lost(interval: 100 * millisecond, waited: 4 * millisecond, othersShare: -0.2), 0, "jiffies' rounding")
    }

    func testTheKernelsFormatsParse() {
        func parse(_ text: String, count: Int, skipping: Int = 0) -> [UInt64]? {
            Array(text.utf8).withUnsafeBufferPointer { StarvationMeter.parse($0, count: count, skippingWords: skipping) }
        }
        XCTAssertEqual(parse("1873265 40211 12\n", count: 2), [1_873_265, 40211])
        XCTAssertEqual(
            parse("cpu  4705 150 1120 16250 520 0 7 31 0 0\ncpu0 2000 70 500 8000 260 0 3 15 0 0\n", count: 8, skipping: 1),
            [4705, 150, 1120, 16250, 520, 0, 7, 31])
        XCTAssertNil(parse("12\n", count: 2), "too few numbers")
        XCTAssertNil(parse("cpu 1 2 x 4\n", count: 4, skipping: 1), "a word that is not a number")
    }

    /// On Linux the meter's reader sees this thread's time on a processor grow while it
    /// spins, and a sample never records more than the time it covers.
    func testTheMeterReadsThisProcess() throws {
        let path = "/proc/thread-self/schedstat"
        guard let first = StarvationMeter.numbers(in: path, count: 2) else { throw XCTSkip("no scheduler statistics on this kernel") }
        let start = MonotonicClock.now()
        var meter = StarvationMeter(now: start)
        // Spins until the thread has run 20 ms by its own statistics, or 5 s have passed.
        var ran: UInt64 = 0
        while ran < 20 * millisecond && MonotonicClock.now() - start < 5_000 * millisecond {
            ran = (StarvationMeter.numbers(in: path, count: 2)?[0] ?? first[0]) - first[0]
        }
        XCTAssertGreaterThanOrEqual(ran, 20 * millisecond, "a spinning thread's time on a processor grows")
        let before = Starvation.lost
        let lost = meter.sample(now: MonotonicClock.now())
        XCTAssertLessThanOrEqual(lost, MonotonicClock.now() - start)
        XCTAssertEqual(Starvation.lost - before, lost, "recorded in the process's total")
    }

    /// The deadline moves by the time the process's threads queued behind others, even
    /// when the waiter itself woke on time.
    func testADeadlineMovesByTheTimeLostToOthers() {
        var deadline = StallCompensatedDeadline(seconds: 1, now: 0, starved: 5 * millisecond)
        var now: UInt64 = 0
        var starved: UInt64 = 5 * millisecond
        for _ in 0..<40 {
            now += 50 * millisecond
            starved += 45 * millisecond
            XCTAssertFalse(deadline.hasPassed(now: now, afterPause: 50 * millisecond, starved: starved))
        }
        XCTAssertEqual(deadline.extended, 40 * 45 * millisecond)
        // The machine is quiet again: the remaining time runs on the wall clock.
        while !deadline.hasPassed(now: now, afterPause: 50 * millisecond, starved: starved) { now += 50 * millisecond }
        XCTAssertEqual(now, 2_800 * millisecond + 50 * millisecond, "1 s plus the 1.8 s lost, at the first reading past it")
    }

    /// The meter samples every 100 ms while a waiter may read every 50 ms: a sample's whole
    /// loss counts, even when it is more than the time since the waiter's last reading.
    func testASampleCoveringMoreThanOnePauseCountsWhole() {
        var deadline = StallCompensatedDeadline(seconds: 1, now: 0, starved: 0)
        XCTAssertFalse(deadline.hasPassed(now: 50 * millisecond, afterPause: 50 * millisecond, starved: 0))
        XCTAssertFalse(deadline.hasPassed(now: 100 * millisecond, afterPause: 50 * millisecond, starved: 100 * millisecond))
        XCTAssertEqual(deadline.extended, 100 * millisecond)
    }
}
