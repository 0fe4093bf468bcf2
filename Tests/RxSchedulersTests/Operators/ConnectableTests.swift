import RxSchedulers
import RxSchedulersTesting
import XCTest

/// Connectable sequences: multicast, publish, replay, replayAll and refCount, in virtual time.
final class ConnectableTests: RxTestCase {
    private let source: [Recorded<Event<Int>>] = [.next(210, 1), .next(240, 2), .next(270, 3), .completed(300)]

    func testPublishSendsOnlyWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        var published: ConnectableObservable<Int>!
        var connection: Disposable!
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { published = xs.publish() }
        scheduler.scheduleAt(200) { _ = published.subscribe(observer) }
        scheduler.scheduleAt(230) { connection = published.connect() }
        scheduler.scheduleAt(260) { connection.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(240, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 260)])
    }

    func testConnectTwiceSharesOneSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let published = xs.publish()
        var first: Disposable!
        var second: Disposable!
        scheduler.scheduleAt(220) { first = published.connect() }
        scheduler.scheduleAt(230) { second = published.connect() }
        scheduler.scheduleAt(250) { second.dispose() }
        scheduler.start()
        XCTAssertTrue((first as AnyObject) === (second as AnyObject), "a live connection is returned again")
        XCTAssertEqual(xs.subscriptions, [Subscription(220, 250)])
    }

    func testReplayGivesALateObserverTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let replayed = xs.replay(1)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(250) { _ = replayed.subscribe(observer) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(250, 2), .next(270, 3), .completed(300)], "the last element, then the live ones")
    }

    func testReplayAllGivesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let replayed = xs.replayAll()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = replayed.connect() }
        scheduler.scheduleAt(280) { _ = replayed.subscribe(observer) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(280, 1), .next(280, 2), .next(280, 3), .completed(300)])
    }

    func testAfterTheSourceEndedAFreshSubjectServesTheNextConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let published = xs.publish()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = published.subscribe(first) }
        scheduler.scheduleAt(200) { _ = published.connect() }
        scheduler.scheduleAt(300) { _ = published.subscribe(second) }
        scheduler.scheduleAt(300) { _ = published.connect() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testMulticastWithASelectorConnectsPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let observer = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.skip(1)) { $0 * 10 + $1 } })
        }
        XCTAssertEqual(observer.events, [.next(240, 12), .next(270, 23), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMulticastSelectorThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let observer = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { (_: Observable<Int>) -> Observable<Int> in throw TestError() })
        }
        XCTAssertEqual(observer.events, [.error(200, TestError())])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testRefCountConnectsForTheFirstAndDisconnectsAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(source)
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var a: Disposable!
        var b: Disposable!
        scheduler.scheduleAt(205) { a = shared.subscribe(first) }
        scheduler.scheduleAt(235) { b = shared.subscribe(second) }
        scheduler.scheduleAt(250) { a.dispose() }
        scheduler.scheduleAt(280) { b.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(240, 2)])
        XCTAssertEqual(second.events, [.next(240, 2), .next(270, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 280)])
    }

    func testRefCountReconnectsAfterTheSourceEnded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }
}
