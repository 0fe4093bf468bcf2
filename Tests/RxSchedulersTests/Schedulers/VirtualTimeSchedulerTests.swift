import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

final class VirtualTimeSchedulerTests: RxTestCase {
    func testRunsInTimeOrderThenSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.scheduleAt(30) { log.append("c@\(scheduler.clock)") }
        scheduler.scheduleAt(10) { log.append("a@\(scheduler.clock)") }
        scheduler.scheduleAt(20) { log.append("b1@\(scheduler.clock)") }
        scheduler.scheduleAt(20) { log.append("b2@\(scheduler.clock)") }
        scheduler.start()
        XCTAssertEqual(log, ["a@10", "b1@20", "b2@20", "c@30"])
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testAdvanceToRunsOnlyWhatIsDue() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        for time in [10, 20, 30] { scheduler.scheduleAt(time) { log.append(time) } }
        scheduler.advanceTo(20)
        XCTAssertEqual(log, [10, 20])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(25)
        XCTAssertEqual(scheduler.clock, 25)
        scheduler.start()
        XCTAssertEqual(log, [10, 20, 30])
    }

    func testStopHaltsStart() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) {
            log.append(10)
            scheduler.stop()
        }
        scheduler.scheduleAt(20) { log.append(20) }
        scheduler.start()
        XCTAssertEqual(log, [10])
        scheduler.start()
        XCTAssertEqual(log, [10, 20])
    }

    func testSleepMovesTheClockWithoutRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        scheduler.scheduleAt(10) { ran = true }
        scheduler.sleep(50)
        XCTAssertEqual(scheduler.clock, 50)
        XCTAssertFalse(ran)
        scheduler.start()
        XCTAssertTrue(ran)
        XCTAssertEqual(scheduler.clock, 50, "the clock never moves backwards")
    }

    func testDisposedItemsAreSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let item = scheduler.scheduleRelativeVirtual((), dueTime: 10) { _ in
            ran = true
            return Disposables.create()
        }
        item.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testScheduleRelativeUsesResolutionAndProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 100, resolution: 0.001)
        var times: [Int] = []
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(25)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [101, 125], "work due now runs one tick later")
        let noDelay = TestScheduler(initialClock: 100, simulateProcessingDelay: false)
        var at: Int?
        _ = noDelay.schedule(()) { _ in
            at = noDelay.clock
            return Disposables.create()
        }
        noDelay.start()
        XCTAssertEqual(at, 100)
    }

    func testHistoricalScheduler() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var fired: [Date] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            fired.append(scheduler.now)
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual((), time: start.addingTimeInterval(2)) { _ in
            fired.append(scheduler.now)
            return Disposables.create()
        }
        scheduler.advanceTo(start.addingTimeInterval(3))
        XCTAssertEqual(fired, [start.addingTimeInterval(2)])
        scheduler.start()
        XCTAssertEqual(fired, [start.addingTimeInterval(2), start.addingTimeInterval(5)])
    }

    func testVirtualSchedulerDrivesPeriodicScheduling() {
        let scheduler = TestScheduler(initialClock: 0)
        var ticks: [Int] = []
        var periodic: Disposable?
        periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(5)) { state in
            ticks.append(scheduler.clock)
            if state == 3 { periodic?.dispose() }
            return state + 1
        }
        scheduler.start()
        XCTAssertEqual(ticks, [10, 15, 20, 25])
        periodic = nil
    }

    /// A hot observable nobody holds or subscribes to plays to nobody, and its events,
    /// still scheduled, do not trap (they held it unowned, and release builds let go of a
    /// local after its last use).
    func testAHotObservableNobodyHoldsPlaysToNobody() {
        let scheduler = TestScheduler(initialClock: 0)
        weak var released: TestableObservable<Int>?
        do {
            let hot = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            released = hot
        }
        XCTAssertNil(released)
        scheduler.start()
        XCTAssertEqual(scheduler.clock, 220)
    }

}
