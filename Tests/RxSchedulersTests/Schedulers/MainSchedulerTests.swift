import Foundation
import RxSchedulers
import XCTest

/// XCTest runs test methods on the main thread, which is on the main queue; pumping
/// `RunLoop.main` drains what was enqueued.
final class MainSchedulerTests: RxTestCase {
    func testRunsInlineOnMainWhenNothingIsEnqueued() {
        var ran = false
        _ = MainScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
        MainScheduler.ensureExecutingOnScheduler()
    }

    /// "On the main queue" is libdispatch's answer, as in RxSwift: not the main thread
    /// inside another queue's `sync` block, and yes in a block of a queue that targets
    /// the main queue (the fast test says no there; the queue-specific key decides).
    func testMainQueueMeansWhatLibdispatchSays() {
        let log = Locked<[String]>([])
        @Sendable func note(_ entry: String) -> Disposable {
            log.withValue { $0.append(entry) }
            return Disposables.create()
        }
        DispatchQueue(label: "not the main queue").sync {
            _ = MainScheduler.instance.schedule(()) { _ in note("from serial.sync") }
            log.withValue { $0.append("after schedule in serial.sync") }
        }
        XCTAssertTrue(pumpMainLoop { log.withValue { $0.count } == 2 })
        XCTAssertEqual(log.withValue { $0 }, ["after schedule in serial.sync", "from serial.sync"], "enqueued, not inline")

        DispatchQueue(label: "targets the main queue", target: .main).async {
            _ = MainScheduler.instance.schedule(()) { _ in note("inline in a queue targeting main") }
            log.withValue { $0.append("after schedule in the targeting queue") }
        }
        XCTAssertTrue(pumpMainLoop { log.withValue { $0.count } == 4 })
        XCTAssertEqual(log.withValue { Array($0.suffix(2)) }, ["inline in a queue targeting main", "after schedule in the targeting queue"])
    }

    func testNestedScheduleIsEnqueuedNotReentrant() {
        var log: [String] = []
        _ = MainScheduler.instance.schedule(()) { _ in
            log.append("outer start")
            _ = MainScheduler.instance.schedule(()) { _ in
                log.append("nested")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer start", "outer end"])
        XCTAssertTrue(pumpMainLoop { log.count == 3 })
        XCTAssertEqual(log, ["outer start", "outer end", "nested"])
    }

    func testKeepsFIFOOrderWhileWorkIsEnqueued() {
        let log = Locked<[Int]>([])
        // A semaphore, not an expectation: waiting on an expectation pumps the main
        // run loop, which would drain the main queue early.
        let background = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<50 {
                _ = MainScheduler.instance.schedule(()) { _ in
                    log.withValue { $0.append(value) }
                    return Disposables.create()
                }
            }
            background.signal()
        }
        XCTAssertEqual(background.wait(timeout: .now() + 5), .success)
        XCTAssertGreaterThan(MainScheduler.instance.pendingCount, 0)
        _ = MainScheduler.instance.schedule(()) { _ in
            log.withValue { $0.append(50) }
            return Disposables.create()
        }
        XCTAssertEqual(log.current.count, 0, "with work enqueued, a call on main must not run inline")
        XCTAssertTrue(pumpMainLoop { log.current.count == 51 })
        XCTAssertEqual(log.current, Array(0...50))
    }

    func testFromBackgroundRunsOnMain() {
        let ranOnMain = Locked<Bool?>(nil)
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                ranOnMain.withValue { $0 = Thread.isMainThread }
                return Disposables.create()
            }
        }
        XCTAssertTrue(pumpMainLoop { ranOnMain.current != nil })
        XCTAssertEqual(ranOnMain.current, true)
    }

    func testDisposeBeforeRunSkipsTheAction() {
        var ran = false
        _ = MainScheduler.instance.schedule(()) { _ in
            let pending = MainScheduler.instance.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }
            pending.dispose()
            return Disposables.create()
        }
        var drained = false
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            drained = true
            return Disposables.create()
        }
        XCTAssertTrue(pumpMainLoop { drained })
        XCTAssertFalse(ran)
    }

    /// `perAction` puts one block on the main queue per enqueued action (RxSwift's
    /// algorithm); `batched` one per burst of up to `batchSize`; inline runs none.
    func testMainQueueBlocksCountTheDispatch() {
        let count = 300
        for dispatch in SchedulerDispatch.allCases {
            let scheduler = MainScheduler(dispatch: dispatch)
            let ran = Locked(0)
            let scheduled = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for _ in 0..<count {
                    _ = scheduler.schedule(()) { _ in
                        ran.withValue { $0 += 1 }
                        return Disposables.create()
                    }
                }
                scheduled.signal()
            }
            scheduled.wait()
            XCTAssertTrue(pumpMainLoop { ran.current == count })
            switch dispatch {
            case .perAction: XCTAssertEqual(scheduler.mainQueueBlocks, count)
            case .batched:
                XCTAssertGreaterThanOrEqual(scheduler.mainQueueBlocks, (count + SchedulerDispatch.batchSize - 1) / SchedulerDispatch.batchSize)
                XCTAssertLessThan(scheduler.mainQueueBlocks, count / 4)
            }
            let before = scheduler.mainQueueBlocks
            _ = scheduler.schedule(()) { _ in Disposables.create() }
            XCTAssertEqual(scheduler.mainQueueBlocks, before, "\(dispatch): an inline run puts no block on the queue")
        }
    }

    func testAsyncInstanceNeverRunsInline() {
        var ran = false
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertFalse(ran)
        XCTAssertTrue(pumpMainLoop { ran })
    }

    func testPrivateInstanceHasItsOwnCounter() {
        let shared = MainScheduler.instance
        let own = MainScheduler()
        var ranInline = false
        _ = shared.schedule(()) { _ in
            // The shared counter is busy, yet a private instance still runs inline.
            _ = own.schedule(()) { _ in
                ranInline = true
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertTrue(ranInline)
    }

    func testConcurrentMainSchedulerRunsInlineOnMain() {
        var log: [String] = []
        _ = MainScheduler.instance.schedule(()) { _ in
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                log.append("inline")
                return Disposables.create()
            }
            log.append("after")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["inline", "after"])
        let fromBackground = Locked<Bool?>(nil)
        DispatchQueue.global().async {
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                fromBackground.withValue { $0 = Thread.isMainThread }
                return Disposables.create()
            }
        }
        XCTAssertTrue(pumpMainLoop { fromBackground.current != nil })
        XCTAssertEqual(fromBackground.current, true)
    }

    func testScheduleRelativeOnMain() {
        let start = Date()
        var firedAfter: TimeInterval?
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            firedAfter = Date().timeIntervalSince(start)
            return Disposables.create()
        }
        XCTAssertTrue(pumpMainLoop { firedAfter != nil })
        XCTAssertGreaterThanOrEqual(firedAfter ?? 0, 0.029)
    }

    func testBatchedDrainYieldsTheMainQueueBetweenBatches() {
        let scheduler = MainScheduler()
        let log = Locked<[String]>([])
        let enqueued = DispatchSemaphore(value: 0)
        let count = MainScheduler.batchSize * 2 + 5
        DispatchQueue.global().async {
            for index in 0..<count {
                _ = scheduler.schedule(()) { _ in
                    log.withValue { $0.append("action \(index)") }
                    return Disposables.create()
                }
            }
            DispatchQueue.main.async { log.withValue { $0.append("other work") } }
            enqueued.signal()
        }
        XCTAssertEqual(enqueued.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(pumpMainLoop { log.current.count == count + 1 })
        // At most one batch: `batchSize` actions, or fewer once the block spent its time
        // budget (a loaded machine), which it checks every 32 actions.
        let position = try! XCTUnwrap(log.current.firstIndex(of: "other work"))
        XCTAssertLessThanOrEqual(position, MainScheduler.batchSize, "other main-queue work runs after one batch, not after all \(count) actions")
        XCTAssertTrue(position == MainScheduler.batchSize || (position > 0 && position % 32 == 0), "yielded after \(position) actions")
        XCTAssertEqual(log.current.filter { $0 != "other work" }, (0..<count).map { "action \($0)" })
    }

    func testPerActionDispatchKeepsTheSameGuarantees() {
        let scheduler = MainScheduler(dispatch: .perAction)
        XCTAssertEqual(scheduler.dispatch, .perAction)
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            log.append("outer")
            let skipped = scheduler.schedule(()) { _ in
                log.append("skipped")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("nested")
                return Disposables.create()
            }
            skipped.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer"])
        XCTAssertTrue(pumpMainLoop { log.count == 2 })
        // Keep the main queue running a little longer: the disposed action must not run late.
        _ = pumpMainLoop(timeout: 0.05) { false }
        XCTAssertEqual(log, ["outer", "nested"])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}
