import Dispatch
import Foundation
import XCTest

@testable import RxSchedulers

final class DeliveryCountTests: XCTestCase {
    /// With nothing in flight, what a remover took out may be released at once.
    func testNothingInFlightNeedsNoParking() {
        let deliveries = DeliveryCount()
        XCTAssertFalse(deliveries.parkIfDelivering())
        deliveries.enter()
        XCTAssertFalse(deliveries.leave(), "nothing was parked")
        XCTAssertFalse(deliveries.parkIfDelivering())
        XCTAssertEqual(deliveries.word.load(ordering: .relaxed), 0)
    }

    /// Parking while deliveries run marks the word; the delivery that leaves last reports
    /// it, and taking what was parked clears the mark only once none runs.
    func testTheLastDeliveryToLeaveCollectsWhatWasParkedMeanwhile() {
        let deliveries = DeliveryCount()
        deliveries.enter()
        deliveries.enter()
        XCTAssertTrue(deliveries.parkIfDelivering())
        XCTAssertTrue(deliveries.parkIfDelivering(), "already marked")
        XCTAssertFalse(deliveries.takeParked(), "deliveries still run")
        XCTAssertFalse(deliveries.leave(), "one still runs")
        XCTAssertTrue(deliveries.leave(), "the last one leaves with something parked")
        XCTAssertTrue(deliveries.takeParked())
        XCTAssertFalse(deliveries.takeParked(), "taken once")
        XCTAssertEqual(deliveries.word.load(ordering: .relaxed), 0)
    }

    /// A delivery that enters after the parking keeps the mark from being taken until it
    /// leaves, and its leaving reports it.
    func testADeliveryEnteringBeforeTheCollectionDefersIt() {
        let deliveries = DeliveryCount()
        deliveries.enter()
        XCTAssertTrue(deliveries.parkIfDelivering())
        XCTAssertTrue(deliveries.leave())
        deliveries.enter()  // before the collector took its lock
        XCTAssertFalse(deliveries.takeParked())
        XCTAssertTrue(deliveries.leave())
        XCTAssertTrue(deliveries.takeParked())
    }

    /// Threads count deliveries in and out while others park under a lock and collect:
    /// the count ends at zero with nothing marked, and everything parked was collected by
    /// a delivery that left last.
    func testConcurrentDeliveriesAndParkingsBalance() {
        let deliveries = DeliveryCount()
        let lock = SpinningLock()
        let parked = UnsafeCounter()
        let collected = UnsafeCounter()
        func collect() {
            lock.performLocked {
                if deliveries.takeParked() {
                    collected.value += parked.value
                    parked.value = 0
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for _ in 0..<20_000 {
                if thread < 3 {
                    deliveries.enter()
                    if deliveries.leave() { collect() }
                } else {
                    lock.performLocked {
                        if deliveries.parkIfDelivering() { parked.value += 1 } else { collected.value += 1 }
                    }
                }
            }
        }
        XCTAssertEqual(deliveries.word.load(ordering: .relaxed), 0)
        XCTAssertEqual(lock.performLocked { parked.value }, 0, "every parking collected")
        XCTAssertEqual(lock.performLocked { collected.value }, 20_000)
    }
}
