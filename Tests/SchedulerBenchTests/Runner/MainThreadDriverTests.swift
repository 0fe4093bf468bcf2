import Foundation
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class MainThreadDriverTests: XCTestCase {
    func testWorkRunsOffMainWhileTheMainQueueIsServed() {
        let (onMain, servedOnMain) = MainThreadDriver.run { () -> (Bool, Bool) in
            let served = DispatchSemaphore(value: 0)
            var ranOnMain = false
            DispatchQueue.main.async {
                ranOnMain = Thread.isMainThread
                served.signal()
            }
            let finished = served.wait(timeout: .now() + 5) == .success
            return (Thread.isMainThread, finished && ranOnMain)
        }
        XCTAssertFalse(onMain, "the work runs on the driver thread")
        XCTAssertTrue(servedOnMain, "main-queue blocks run on the main thread while the work runs")
    }

    /// The check an instruction count relies on: it returns only once the main thread
    /// sleeps in its run loop, so a block still running there is waited out.
    func testWaitingForAnIdleMainThreadWaitsOutABlockRunningThere() {
        let (idleAtOnce, waited, idleAfter) = MainThreadDriver.run { () -> (Bool, Double, Bool) in
            let idleAtOnce = MainThreadDriver.waitUntilMainThreadIsIdle(timeout: 5)
            let started = DispatchSemaphore(value: 0)
            DispatchQueue.main.async {
                started.signal()
                let end = Date().addingTimeInterval(0.3)
                while Date() < end {}
            }
            started.wait()
            let start = Date()
            let idleAfter = MainThreadDriver.waitUntilMainThreadIsIdle(timeout: 5)
            return (idleAtOnce, Date().timeIntervalSince(start), idleAfter)
        }
        XCTAssertTrue(idleAtOnce, "a driven main thread with nothing to do sleeps in its run loop")
        XCTAssertTrue(idleAfter)
        XCTAssertGreaterThan(waited, 0.2, "the wait lasted until the busy block ended")
    }

    func testWaitingForAnIdleMainThreadReturnsAtOnceWhenNothingIsDriven() {
        let start = Date()
        XCTAssertFalse(MainThreadDriver.waitUntilMainThreadIsIdle(timeout: 5))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }
}
