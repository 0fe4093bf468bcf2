import Dispatch
import Foundation
import XCTest

@testable import RxSchedulers

final class DeliveryLockTests: XCTestCase {
    /// Threads increment a plain counter under the lock while others count deliveries in
    /// and out: no update may be lost, and ThreadSanitizer must see every access ordered.
    func testMutualExclusionWhileDeliveriesComeAndGo() {
        let lock = DeliveryLock()
        let counter = UnsafeCounter()
        let threads = 8
        let rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for _ in 0..<rounds {
                lock.lock()
                counter.value += 1
                if thread.isMultiple(of: 2) {
                    lock.unlockEnteringDelivery()
                    _ = lock.leaveDelivery()
                } else {
                    lock.unlock()
                }
            }
        }
        XCTAssertEqual(counter.value, threads * rounds)
        XCTAssertEqual(lock.word.load(ordering: .relaxed), 0, "no delivery or mark left")
    }

    /// Parking while a delivery runs marks the word; the delivery that ends last reports
    /// it, and taking what was parked clears the mark only once none runs.
    func testTheLastDeliveryToEndCollectsWhatWasParkedMeanwhile() {
        let lock = DeliveryLock()
        lock.lock()
        XCTAssertFalse(lock.parkIfDelivering(), "nothing in flight: release at once")
        lock.unlockEnteringDelivery()
        lock.lock()
        lock.unlockEnteringDelivery()  // two in flight

        lock.lock()
        XCTAssertTrue(lock.parkIfDelivering())
        XCTAssertTrue(lock.parkIfDelivering(), "already marked")
        XCTAssertFalse(lock.takeParked(), "deliveries still run")
        lock.unlock()

        XCTAssertFalse(lock.leaveDelivery(), "one still runs")
        XCTAssertTrue(lock.leaveDelivery(), "the last one ends with something parked")
        lock.lock()
        XCTAssertTrue(lock.takeParked())
        XCTAssertFalse(lock.takeParked(), "taken once")
        lock.unlock()
        XCTAssertEqual(lock.word.load(ordering: .relaxed), 0)
    }

    /// A delivery that ends while another thread holds the lock still reports the mark.
    func testTheMarkIsReportedWhileTheLockIsHeld() {
        let lock = DeliveryLock()
        lock.lock()
        lock.unlockEnteringDelivery()
        lock.lock()
        XCTAssertTrue(lock.parkIfDelivering())
        XCTAssertTrue(lock.leaveDelivery(), "held by someone else, and parked")
        XCTAssertTrue(lock.takeParked())
        lock.unlock()
    }

    /// A holder that stays inside for a long time sends waiters through the yield and
    /// sleep steps; a delivery ending meanwhile does not let a waiter in.
    func testWaitersGetTheLockOnlyAfterTheHolderGivesItBack() {
        let lock = DeliveryLock()
        lock.lock()
        lock.unlockEnteringDelivery()
        lock.lock()
        assertWaitersGetTheLockOnlyAfterItIsGivenBack(
            lock: { lock.lock() }, unlock: { lock.unlock() },
            whileHeld: { XCTAssertFalse(lock.leaveDelivery()) })
    }
}
