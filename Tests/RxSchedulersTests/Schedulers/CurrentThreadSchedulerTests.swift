import Foundation
import RxSchedulers
import XCTest

final class CurrentThreadSchedulerTests: RxTestCase {
    private let scheduler = CurrentThreadScheduler.instance

    func testOutermostActionRunsInline() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var ran = false
        _ = scheduler.schedule(()) { _ in
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testNestedActionsRunAfterTheOuterOneInOrder() {
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            log.append("outer start")
            _ = self.scheduler.schedule(()) { _ in
                log.append("first")
                _ = self.scheduler.schedule(()) { _ in
                    log.append("third")
                    return Disposables.create()
                }
                return Disposables.create()
            }
            _ = self.scheduler.schedule(()) { _ in
                log.append("second")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer start", "outer end", "first", "second", "third"])
    }

    func testDisposedNestedActionIsSkipped() {
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            let skipped = self.scheduler.schedule(()) { _ in
                log.append("skipped")
                return Disposables.create()
            }
            _ = self.scheduler.schedule(()) { _ in
                log.append("kept")
                return Disposables.create()
            }
            skipped.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(log, ["kept"])
    }

    func testEachThreadHasItsOwnTrampoline() {
        let otherThreadRanInline = Locked(false)
        let done = expectation(description: "other thread")
        _ = scheduler.schedule(()) { _ in
            Thread.detachNewThread {
                XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
                _ = self.scheduler.schedule(()) { _ in
                    otherThreadRanInline.withValue { $0 = true }
                    return Disposables.create()
                }
                done.fulfill()
            }
            self.wait(for: [done], timeout: 5)
            return Disposables.create()
        }
        XCTAssertTrue(otherThreadRanInline.current)
    }

    func testDeepRecursionDoesNotGrowTheStack() {
        var count = 0
        _ = scheduler.scheduleRecursive(0) { value, recurse in
            count = value
            if value < 200_000 { recurse(value + 1) }
        }
        XCTAssertEqual(count, 200_000)
    }

    /// The queued step's state is held out of line; a recursion disposed with a step still
    /// queued must release that state, and a finished one must hold none.
    func testRecursionReleasesItsQueuedStateWhenDisposedOrDone() {
        final class Token {}
        weak var queued: Token?
        weak var last: Token?
        _ = scheduler.schedule(()) { _ in
            // Inside an outer action the first step is queued, not run.
            let token = Token()
            queued = token
            let subscription = self.scheduler.scheduleRecursive(token) { _, _ in XCTFail("disposed before it ran") }
            subscription.dispose()
            return Disposables.create()
        }
        XCTAssertNil(queued, "the disposed recursion released its queued state")

        var steps = 0
        _ = scheduler.scheduleRecursive(Token()) { token, recurse in
            steps += 1
            last = token
            if steps < 3 { recurse(Token()) }
        }
        XCTAssertEqual(steps, 3)
        XCTAssertNil(last, "no state outlives the finished recursion")
    }

    func testRecursionStopsWhenDisposed() {
        var count = 0
        var subscription: Disposable?
        // Started inside an outer action, the recursion runs after `subscription` is set.
        _ = scheduler.schedule(()) { _ in
            subscription = self.scheduler.scheduleRecursive(0) { value, recurse in
                count += 1
                if value == 10 { subscription?.dispose() }
                recurse(value + 1)
            }
            return Disposables.create()
        }
        XCTAssertEqual(count, 11)
        subscription = nil
    }

    /// A step that recurses with nothing queued continues in a loop instead of through the
    /// queue; the order must still be the trampoline's FIFO order.
    func testRecursionKeepsItsFIFOTurnWhenItContinuesInline() {
        var log: [String] = []
        func note(_ entry: String) -> Disposable {
            log.append(entry)
            return Disposables.create()
        }
        _ = scheduler.scheduleRecursive(0) { value, recurse in
            log.append("step \(value)")
            guard value < 3 else { return }
            if value == 1 { _ = self.scheduler.schedule(()) { _ in note("queued before recursing") } }
            recurse(value + 1)
            if value == 0 { _ = self.scheduler.schedule(()) { _ in note("queued after recursing") } }
        }
        // FIFO: step 0 queues [step 1, after]; step 1 queues [after, before, step 2]; then step 3.
        XCTAssertEqual(log, ["step 0", "step 1", "queued after recursing", "queued before recursing", "step 2", "step 3"])
    }

    func testRecursionDisposedAfterItRecursedStopsAndReleasesTheState() {
        final class Token {}
        weak var pending: Token?
        var count = 0
        var subscription: Disposable?
        _ = scheduler.schedule(()) { _ in
            subscription = self.scheduler.scheduleRecursive(Token()) { _, recurse in
                count += 1
                let next = Token()
                recurse(next)
                if count == 5 {
                    pending = next
                    subscription?.dispose()
                }
            }
            return Disposables.create()
        }
        XCTAssertEqual(count, 5)
        subscription = nil
        XCTAssertNil(pending, "the state of the step that never ran is released")
    }

    func testProducersSubscribeThroughTheTrampoline() {
        var log: [String] = []
        _ = Observable.of(1, 2).subscribe(onNext: { value in
            log.append("outer \(value)")
            _ = Observable.of(10, 20).subscribe(onNext: { log.append("inner \($0)") })
        })
        // One FIFO queue per thread: each step of each sequence takes its turn.
        XCTAssertEqual(log, ["outer 1", "inner 10", "outer 2", "inner 20", "inner 10", "inner 20"])
    }
}
