import Foundation
import RxSchedulers
import XCTest

final class OperationQueueSchedulerTests: RxTestCase {
    func testQueuePriorityIsHonoured() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let log = Locked<[String]>([])
        let priorities: [(String, Operation.QueuePriority)] = [("low", .low), ("normal", .normal), ("veryHigh", .veryHigh), ("high", .high)]
        for (name, priority) in priorities {
            let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: priority)
            _ = scheduler.schedule(()) { _ in
                log.withValue { $0.append(name) }
                return Disposables.create()
            }
        }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.current, ["veryHigh", "high", "normal", "low"])
    }

    func testDisposeBeforeRunCancels() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = Locked(false)
        let pending = scheduler.schedule(()) { _ in
            ran.withValue { $0 = true }
            return Disposables.create()
        }
        pending.dispose()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(ran.current)
    }

    func testSerialQueueNeverOverlaps() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let detector = OverlapDetector()
        for _ in 0..<100 {
            _ = scheduler.schedule(()) { _ in
                detector.enter()
                usleep(20)
                detector.leave()
                return Disposables.create()
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(detector.maximumConcurrency, 1)
    }
}
