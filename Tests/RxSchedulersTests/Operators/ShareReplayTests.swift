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
}
