import RxSchedulers
import RxSchedulersTesting
import XCTest

final class TimeOperatorTests: RxTestCase {
    func testThrottleLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(215, 2), .next(218, 3),
            .next(240, 4), .next(255, 5), .completed(300),
        ])
        let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 3), .next(250, 4), .next(270, 5), .completed(300)])
    }

    func testThrottleNotLatestDropsWithinTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(235, 3), .completed(300)])
        let observer = scheduler.start { source.throttle(.seconds(20), latest: false, scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(235, 3), .completed(300)])
    }

    func testThrottleCompletionWaitsForThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .completed(230)])
    }

    func testDebounce() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(215, 2), .next(240, 3), .next(290, 4), .completed(300),
        ])
        let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(235, 2), .next(260, 3), .next(300, 4), .completed(300)])
    }

    func testDebounceErrorDropsPending() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.error(220, TestError())])
    }

    func testDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let observer = scheduler.start { source.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(240, 1), .completed(250)])
        XCTAssertEqual(source.subscriptions, [Subscription(230, 250)])
    }

    func testDelaySubscriptionDisposedBeforeItSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1)])
        let observer = scheduler.start(disposed: 220) { source.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(source.subscriptions, [])
    }
}
