import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// A progress-aware wait ends when the work stops, not while it is slow.
final class ProgressDeadlineTests: XCTestCase {
    private let millisecond: UInt64 = 1_000_000

    /// Readings every 50 ms with `progress(t)` as the count; returns when and how it ended.
    private func run(
        quiet: Double, cap: Double, until end: UInt64 = 200_000_000_000, progress: (UInt64) -> Int
    ) -> (at: UInt64, expiry: ProgressDeadline.Expiry?) {
        var deadline = ProgressDeadline(quietSeconds: quiet, capSeconds: cap, progress: progress(0), now: 0)
        var now: UInt64 = 0
        while now < end {
            now += 50 * millisecond
            if let expiry = deadline.expiry(now: now, afterPause: 50 * millisecond, progress: progress(now)) { return (now, expiry) }
        }
        return (now, nil)
    }

    func testNothingMovingEndsAfterTheQuietTime() {
        let (at, expiry) = run(quiet: 2, cap: 60) { _ in 7 }
        XCTAssertEqual(expiry, .noProgress)
        XCTAssertEqual(at, 2_050 * millisecond)
    }

    /// One delivery every 1.5 s (a loaded machine): never 2 s quiet, so the wait goes on
    /// to the cap, which says the work was still moving.
    func testSlowProgressWaitsUntilTheCap() {
        let (at, expiry) = run(quiet: 2, cap: 60) { now in Int(now / (1_500 * millisecond)) }
        XCTAssertEqual(expiry, .stillProgressing)
        XCTAssertEqual(at, 60_050 * millisecond)
    }

    /// Deliveries for 5 s, then none: quiet 2 s after the last one.
    func testTheQuietTimeCountsFromTheLastProgress() {
        let (at, expiry) = run(quiet: 2, cap: 60) { now in Int(min(now, 5_000 * millisecond) / (100 * millisecond)) }
        XCTAssertEqual(expiry, .noProgress)
        XCTAssertEqual(at, 7_050 * millisecond)
    }

    /// A process held off the CPU does not use up the quiet time (StallCompensatedDeadline).
    func testAStallDoesNotCountAsQuiet() {
        var deadline = ProgressDeadline(quietSeconds: 2, capSeconds: 60, progress: 0, now: 0)
        XCTAssertNil(deadline.expiry(now: 1_000 * millisecond, afterPause: 1_000 * millisecond, progress: 0))
        XCTAssertNil(deadline.expiry(now: 6_050 * millisecond, afterPause: 50 * millisecond, progress: 0), "5 s off the CPU")
        XCTAssertEqual(deadline.expiry(now: 7_100 * millisecond, afterPause: 1_050 * millisecond, progress: 0), .noProgress)
    }
}
