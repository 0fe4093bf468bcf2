import Foundation
import RxSchedulers
import XCTest

/// `merge`, `flatMap` and `merge(maxConcurrent:)` with inner sources on several threads:
/// events one at a time and in each source's order, no sender held up by another's
/// delivery, re-entrant events after the call that sent them, stop events after what was
/// sent before them.
final class MergeConcurrencyTests: RxTestCase {
    /// Eight subjects, each sent to from its own thread: every event arrives once, in its
    /// subject's order, never two deliveries at once, then one `completed`.
    func testConcurrentSourcesAreDeliveredSeriallyAndInEachSourcesOrder() {
        for limit in [nil, 8] as [Int?] {
            let sources = (0..<8).map { _ in PublishSubject<(source: Int, index: Int)>() }
            let perSource = 20_000
            let overlap = OverlapDetector()
            let seen = Locked((next: [Int](repeating: 0, count: 8), errors: [String](), completed: 0))
            let merged =
                limit.map { Observable.from(sources.map { $0.asObservable() }).merge(maxConcurrent: $0) }
                ?? Observable.merge(sources.map { $0.asObservable() })
            let subscription = merged.subscribe(
                onNext: { event in
                    overlap.enter()
                    seen.withValue { state in
                        if state.next[event.source] != event.index { state.errors.append("source \(event.source): \(event.index) for \(state.next[event.source])") }
                        state.next[event.source] = event.index + 1
                    }
                    overlap.leave()
                },
                onCompleted: { seen.withValue { $0.completed += 1 } })
            DispatchQueue.concurrentPerform(iterations: sources.count) { source in
                for index in 0..<perSource { sources[source].onNext((source, index)) }
                sources[source].onCompleted()
            }
            let state = seen.current
            XCTAssertEqual(state.errors.prefix(3), [], "limit \(String(describing: limit))")
            XCTAssertEqual(state.next, [Int](repeating: perSource, count: 8))
            XCTAssertEqual(state.completed, 1)
            XCTAssertEqual(overlap.maximumConcurrency, 1, "deliveries overlapped")
            subscription.dispose()
        }
    }

    /// While the observer is busy with one source's event, another thread's `onNext` returns
    /// at once (RxSwift's recursive lock held it until the delivery ended); its event is
    /// delivered after the busy call returns, by the thread that was delivering.
    func testASenderDoesNotWaitForAnotherSendersDelivery() {
        for operatorName in ["merge", "merge(maxConcurrent:)"] {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let inside = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let log = Locked([String]())
            let sources = [first.asObservable(), second.asObservable()]
            let merged = operatorName == "merge" ? Observable.merge(sources) : Observable.from(sources).merge(maxConcurrent: 2)
            let subscription = merged.subscribe(
                onNext: { value in
                    log.withValue { $0.append("enter \(value)") }
                    if value == 1 {
                        inside.signal()
                        release.wait()
                    }
                    log.withValue { $0.append("exit \(value)") }
                },
                onCompleted: { log.withValue { $0.append("completed") } })
            let busy = Thread { first.onNext(1) }
            busy.start()
            XCTAssertEqual(inside.wait(timeout: .now() + 10), .success)
            let returned = DispatchSemaphore(value: 0)
            Thread {
                second.onNext(2)
                second.onCompleted()
                returned.signal()
            }.start()
            XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "\(operatorName): a sender waited for another's delivery")
            XCTAssertEqual(log.current, ["enter 1"], "\(operatorName): nothing delivered inside the busy call")
            release.signal()
            XCTAssertTrue(waitUntil { log.current.count == 4 }, "\(operatorName): \(log.current)")
            first.onCompleted()
            XCTAssertEqual(log.current, ["enter 1", "exit 1", "enter 2", "exit 2", "completed"], operatorName)
            subscription.dispose()
        }
    }

    /// An observer that makes a source emit on its own thread neither deadlocks nor is
    /// re-entered: the event comes after the call that sent it returns.
    func testAReentrantEventComesAfterTheCallThatSentIt() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let third = PublishSubject<Int>()
        var log: [String] = []
        let subscription = Observable.merge(first.asObservable(), second.asObservable(), third.asObservable())
            .subscribe(onNext: { value in
                log.append("enter \(value)")
                if value == 1 {
                    second.onNext(10)
                    third.onNext(20)
                }
                log.append("exit \(value)")
            })
        first.onNext(1)
        XCTAssertEqual(log, ["enter 1", "exit 1", "enter 10", "exit 10", "enter 20", "exit 20"])
        first.onNext(3)
        XCTAssertEqual(log.suffix(2), ["enter 3", "exit 3"])
        subscription.dispose()
    }

    /// A stop event sent while another thread delivers comes after the events sent before
    /// it, and ends the subscription: events sent after it are dropped.
    func testAStopEventComesAfterWhatWasSentBeforeItAndEndsEverything() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = Locked([String]())
        let subscription = Observable.merge(first.asObservable(), second.asObservable())
            .subscribe(
                onNext: { value in
                    log.withValue { $0.append("\(value)") }
                    if value == 1 {
                        inside.signal()
                        release.wait()
                    }
                },
                onError: { _ in log.withValue { $0.append("error") } },
                onCompleted: { log.withValue { $0.append("completed") } })
        Thread { first.onNext(1) }.start()
        XCTAssertEqual(inside.wait(timeout: .now() + 10), .success)
        let returned = DispatchSemaphore(value: 0)
        Thread {
            second.onNext(2)
            second.onError(TestError())
            second.onNext(3)
            returned.signal()
        }.start()
        XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "a sender waited for another's delivery")
        release.signal()
        XCTAssertTrue(waitUntil { log.current.count >= 3 })
        first.onNext(4)
        XCTAssertEqual(log.current, ["1", "2", "error"])
        // The sink disposes right after the error's delivery returns, on the delivering
        // thread, so the disposal may land just after "error" is logged.
        XCTAssertTrue(waitUntil { !first.hasObservers }, "the error disposed every inner subscription")
        subscription.dispose()
    }

    /// `merge(maxConcurrent:)` with sources that complete on other threads never runs more
    /// than its limit at once, starts every source, and completes once.
    func testMergeMaxConcurrentKeepsItsLimitWithSourcesOnOtherThreads() {
        let running = Locked((now: 0, most: 0))
        let queue = DispatchQueue(label: "inner", attributes: .concurrent)
        let sources = (0..<40).map { index in
            Observable<Int>.create { observer in
                running.withValue {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                queue.asyncAfter(deadline: .now() + .milliseconds(index % 3)) {
                    observer.onNext(index)
                    running.withValue { $0.now -= 1 }
                    observer.onCompleted()
                }
                return Disposables.create()
            }
        }
        let values = Locked([Int]())
        let completed = DispatchSemaphore(value: 0)
        let subscription = Observable.from(sources).merge(maxConcurrent: 3)
            .subscribe(onNext: { value in values.withValue { $0.append(value) } }, onCompleted: { completed.signal() })
        XCTAssertEqual(completed.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(values.current.sorted(), Array(0..<40))
        XCTAssertLessThanOrEqual(running.current.most, 3)
        subscription.dispose()
    }

    /// Waits up to 10 s for `condition`.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            usleep(200)
        }
        return true
    }
}
