import Dispatch
import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

final class ReplaySubjectTests: RxTestCase {
    func testALateSubscriberGetsTheLastElementsThenWhatFollows() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400)])
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = source.subscribe(subject) }
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(250) { _ = subject.subscribe(late) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400)])
        XCTAssertEqual(late.events, [.next(250, 2), .next(250, 3), .next(300, 4), .completed(400)])
    }

    func testAfterTheEndASubscriberGetsTheBufferThenTheStopEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for value in 1...5 { subject.onNext(value) }
        subject.onError(TestError())
        subject.onNext(6)
        var received: [Event<Int>] = []
        _ = subject.subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(3), .next(4), .next(5), .error(TestError())])
        XCTAssertFalse(subject.hasObservers)
    }

    func testUnboundedReplaysEverythingAndZeroReplaysNothing() {
        let all = ReplaySubject<Int>.createUnbounded()
        let none = ReplaySubject<Int>.create(bufferSize: 0)
        for value in 1...100 {
            all.onNext(value)
            none.onNext(value)
        }
        var fromAll: [Int] = []
        var fromNone: [Int] = []
        _ = all.subscribe(onNext: { fromAll.append($0) })
        let subscription = none.subscribe(onNext: { fromNone.append($0) })
        none.onNext(101)
        subscription.dispose()
        none.onNext(102)
        XCTAssertEqual(fromAll, Array(1...100))
        XCTAssertEqual(fromNone, [101])
    }

    func testADisposedSubjectRefusesSubscribers() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.onNext(1)
        _ = subject.subscribe(onNext: { _ in })
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        XCTAssertFalse(subject.hasObservers)
        var error: Error?
        _ = subject.subscribe(onError: { error = $0 })
        guard case RxError.disposed? = error as? RxError else { return XCTFail("\(String(describing: error))") }
    }

    /// A subscriber's replay and the live elements never interleave or repeat: every
    /// subscriber sees consecutive numbers, while one thread sends and others subscribe.
    func testReplayAndLiveElementsNeverInterleave() {
        let subject = ReplaySubject<Int>.create(bufferSize: 8)
        let gaps = Counter()
        let sender = Thread {
            for value in 0..<20_000 { subject.onNext(value) }
        }
        sender.start()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                let lock = NSLock()
                var last: Int?
                let subscription = subject.subscribe(onNext: { value in
                    lock.withLock {
                        if let last, value != last + 1 { gaps.add(1) }
                        last = value
                    }
                })
                subscription.dispose()
            }
        }
        while sender.isExecuting { usleep(1_000) }
        XCTAssertEqual(gaps.load(), 0)
    }

    /// The replay is delivered outside the subject's lock, and still before any live
    /// event: one sent from the replayed observer's own handler waits until the replay
    /// returns, so the handler is never re-entered.
    func testALiveEventSentDuringTheReplayWaitsForIt() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        var received: [Int] = []
        var depth = 0
        var reentered = false
        let subscription = subject.subscribe(onNext: { value in
            depth += 1
            defer { depth -= 1 }
            if depth > 1 { reentered = true }
            received.append(value)
            if value == 1 { subject.onNext(3) }
        })
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertFalse(reentered)
        subscription.dispose()
    }
}

/// A count shared by the test's threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add(_ amount: Int) { lock.withLock { value += amount } }
    func load() -> Int { lock.withLock { value } }
}
