import RxSchedulers
import RxSchedulersTesting
import XCTest

final class ShareReplayTests: RxTestCase {
    func testShareSubscribesOnceAndReplays() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
        var shared: Observable<Int>!
        scheduler.scheduleAt(100) { shared = source.share(replay: 2) }
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(early)) }
        scheduler.scheduleAt(225) { subscriptions.append(shared.subscribe(late)) }
        scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(late.events, [.next(225, 1), .next(225, 2), .next(230, 3)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    func testWhileConnectedForgetsAfterDisconnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        var shared: Observable<Int>!
        scheduler.scheduleAt(100) { shared = source.share(replay: 1, scope: .whileConnected) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = shared.subscribe(second) }
        scheduler.scheduleAt(350) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(second.events, [.next(310, 1), .next(320, 2)], "no replay from the previous connection")
        XCTAssertEqual(source.subscriptions, [Subscription(200, 250), Subscription(300, 350)])
    }

    func testForeverKeepsReplayAcrossConnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        var shared: Observable<Int>!
        scheduler.scheduleAt(100) { shared = source.share(replay: 1, scope: .forever) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
        scheduler.scheduleAt(250) { subscription?.dispose() }
        scheduler.scheduleAt(300) { subscription = shared.subscribe(second) }
        scheduler.scheduleAt(350) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(second.events, [.next(300, 2), .next(310, 1), .next(320, 2)])
    }

    func testCompletionReachesEveryone() {
        var log: [String] = []
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create()
        }.share()
        _ = source.subscribe(onNext: { log.append("a\($0)") }, onCompleted: { log.append("a done") })
        XCTAssertEqual(log, ["a1", "a done"])
        XCTAssertEqual(subscriptions, 1)
    }

    /// Nothing is delivered under the share's lock: a handler may subscribe to the same
    /// share, or dispose its own subscription, without deadlocking (RxSwift's #2711/#2713
    /// class of lock inversions).
    func testHandlersMaySubscribeAndDisposeFromInsideADelivery() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var log: [String] = []
        var inner: Disposable?
        var outer: Disposable?
        outer = shared.subscribe(onNext: { value in
            log.append("outer \(value)")
            if value == 1 { inner = shared.subscribe(onNext: { log.append("inner \($0)") }) }
            if value == 2 { outer?.dispose() }
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(log, ["outer 1", "inner 1", "outer 2", "inner 2", "inner 3"], "the inner one is replayed 1, then sees 2 and 3")
        XCTAssertTrue(subject.hasObservers, "the inner subscriber keeps the connection")
        inner?.dispose()
        XCTAssertFalse(subject.hasObservers, "the last subscriber leaving disconnects")
    }

    /// Events of a connection that ended (every subscriber left) reach nobody, even if
    /// its source keeps sending.
    func testAnEndedConnectionDeliversNothing() {
        var captured: AnyObserver<Int>?
        let shared = Observable<Int>.create { observer in
            captured = observer
            return Disposables.create()
        }.share(replay: 1)
        var received: [Int] = []
        let subscription = shared.subscribe(onNext: { received.append($0) })
        captured?.onNext(1)
        subscription.dispose()
        captured?.onNext(2)
        let again = shared.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1], "nothing replayed from the ended connection, nothing delivered from it")
        again.dispose()
        captured = nil  // the test's own cycle: the source's closure holds the observer it captured
    }

    /// A handler that waits for another thread to subscribe to the same share: with the
    /// share's lock held during delivery, that thread would block and the handler wait
    /// out its deadline (RxSwift's test2711/test2713 shape).
    func testAnotherThreadMaySubscribeWhileAHandlerRuns() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let subscribedMeanwhile = DispatchSemaphore(value: 0)
        let other = Locked<Disposable?>(nil)
        var waited: DispatchTimeoutResult?
        let subscription = shared.subscribe(onNext: { _ in
            Thread {
                other.withValue { $0 = shared.subscribe(onNext: { _ in }) }
                subscribedMeanwhile.signal()
            }.start()
            waited = subscribedMeanwhile.wait(timeout: .now() + 5)
        })
        subject.onNext(1)
        XCTAssertEqual(waited, .success, "the other thread subscribed while the handler ran")
        subscription.dispose()
        other.withValue { $0?.dispose() }
    }

    /// A live event that arrives while a late subscriber is being replayed to (here sent
    /// by that subscriber's own handler) waits until the replay is done: the subscriber
    /// sees the replayed element first, and its handler is never re-entered.
    func testALateSubscriberSeesItsReplayBeforeAnyLiveEvent() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        var late: [Int] = []
        var depth = 0
        var reentered = false
        let one = shared.subscribe(onNext: { first.append($0) })
        subject.onNext(1)
        let two = shared.subscribe(onNext: { value in
            depth += 1
            defer { depth -= 1 }
            if depth > 1 { reentered = true }
            late.append(value)
            if value == 1 { subject.onNext(2) }  // live, during the replay of 1
        })
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(late, [1, 2])
        XCTAssertFalse(reentered, "the live 2 waited for the replay of 1 to return")
        one.dispose()
        two.dispose()
    }
}
