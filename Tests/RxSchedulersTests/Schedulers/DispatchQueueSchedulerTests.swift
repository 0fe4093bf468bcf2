import Foundation
import RxSchedulers
import XCTest

final class DispatchQueueSchedulerTests: RxTestCase {
    /// Schedules `count` actions from several threads; each records overlap.
    private func maximumOverlap(on scheduler: ImmediateSchedulerType, count: Int, workMicroseconds: UInt32) -> Int {
        let detector = OverlapDetector()
        let group = DispatchGroup()
        for _ in 0..<count { group.enter() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<(count / 4) {
                _ = scheduler.schedule(()) { _ in
                    detector.enter()
                    usleep(workMicroseconds)
                    detector.leave()
                    group.leave()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        return detector.maximumConcurrency
    }

    func testSerialSchedulerNeverOverlaps() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial-test")
        XCTAssertEqual(maximumOverlap(on: scheduler, count: 400, workMicroseconds: 50), 1)
    }

    func testSerialSchedulerOverConcurrentQueueIsSerial() {
        let concurrent = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let scheduler = SerialDispatchQueueScheduler(queue: concurrent, internalSerialQueueName: "made-serial")
        XCTAssertEqual(maximumOverlap(on: scheduler, count: 400, workMicroseconds: 50), 1)
        let qosScheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        XCTAssertEqual(maximumOverlap(on: qosScheduler, count: 200, workMicroseconds: 50), 1)
    }

    func testSerialSchedulerKeepsOrderPerCaller() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "order")
        let log = Locked<[Int]>([])
        let done = expectation(description: "done")
        for value in 0..<1_000 {
            _ = scheduler.schedule(()) { _ in
                log.withValue { $0.append(value) }
                if value == 999 { done.fulfill() }
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.current, Array(0..<1_000))
    }

    func testConcurrentSchedulerOverlaps() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let bothInside = DispatchGroup()
        bothInside.enter()
        bothInside.enter()
        let met = Locked(0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            _ = scheduler.schedule(()) { _ in
                bothInside.leave()
                // Only possible if the other action runs at the same time.
                if bothInside.wait(timeout: .now() + 5) == .success { met.withValue { $0 += 1 } }
                done.leave()
                return Disposables.create()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(met.current, 2)
    }

    func testScheduleRelativeWaitsAndCanBeCancelled() {
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue.global())
        let start = Date()
        let firedAfter = Locked<TimeInterval?>(nil)
        let cancelledRan = Locked(false)
        let fired = expectation(description: "fired")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(40)) { _ in
            firedAfter.withValue { $0 = Date().timeIntervalSince(start) }
            fired.fulfill()
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            cancelledRan.withValue { $0 = true }
            return Disposables.create()
        }
        cancelled.dispose()
        wait(for: [fired], timeout: 5)
        XCTAssertGreaterThanOrEqual(firedAfter.current ?? 0, 0.039)
        XCTAssertFalse(cancelledRan.current)
    }

    func testScheduleRelativeDisposesWhatTheActionReturned() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "relative-result")
        let inner = BooleanDisposable()
        let fired = expectation(description: "fired")
        let scheduled = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            fired.fulfill()
            return inner
        }
        wait(for: [fired], timeout: 5)
        let drained = expectation(description: "drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: 5)
        XCTAssertFalse(inner.isDisposed)
        scheduled.dispose()
        XCTAssertTrue(inner.isDisposed)
    }

    func testSchedulePeriodicTicksUntilDisposed() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "periodic")
        let states = Locked<[Int]>([])
        let fiveTicks = expectation(description: "five ticks")
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) { state in
            states.withValue { $0.append(state) }
            if state == 4 { fiveTicks.fulfill() }
            return state + 1
        }
        wait(for: [fiveTicks], timeout: 5)
        periodic.dispose()
        let countAtDispose = states.current.count
        // A block queued on the scheduler's serial queue now runs after any tick already
        // queued there: once it ran, no tick can come.
        let drained = expectation(description: "the queue ran past the disposal")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: 30)
        XCTAssertLessThanOrEqual(states.current.count, countAtDispose + 1, "at most a tick already running finishes")
        XCTAssertEqual(Array(states.current.prefix(5)), [0, 1, 2, 3, 4])
    }
}
