import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

/// groupBy, retry(when:), toArray, withUnretained and decode, in virtual time.
final class GroupingTests: RxTestCase {
    func testGroupBySendsAGroupAtItsFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let observer = scheduler.start { xs.groupBy { $0 % 2 }.flatMap { group in group.map { "\(group.key):\($0)" } } }
        XCTAssertEqual(observer.events, [.next(210, "1:1"), .next(220, "0:2"), .next(230, "1:3"), .next(240, "0:4"), .completed(300)])
    }

    func testGroupByErrorReachesEveryGroupThenTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError())])
        var groups: [Int: TestableObserver<Int>] = [:]
        let outer = scheduler.createObserver(Int.self)
        var subscription: Disposable!
        scheduler.scheduleAt(200) {
            subscription = xs.groupBy { $0 % 2 }.subscribe(onNext: { group in
                let observer = scheduler.createObserver(Int.self)
                groups[group.key] = observer
                _ = group.subscribe(observer)
                outer.onNext(group.key)
            }, onError: { outer.onError($0) })
        }
        scheduler.start()
        XCTAssertEqual(groups[1]?.events, [.next(210, 1), .error(230, TestError())])
        XCTAssertEqual(groups[0]?.events, [.next(220, 2), .error(230, TestError())])
        XCTAssertEqual(outer.events, [.next(210, 1), .next(220, 0), .error(230, TestError())])
        subscription.dispose()
    }

    func testAGroupKeepsTheSourceAfterTheOuterSubscriptionIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(260, 5), .completed(300)])
        let members = scheduler.createObserver(Int.self)
        var outer: Disposable!
        var inner: Disposable!
        scheduler.scheduleAt(200) { outer = xs.groupBy { $0 % 2 }.subscribe(onNext: { inner = $0.subscribe(members) }) }
        scheduler.scheduleAt(250) { outer.dispose() }
        scheduler.scheduleAt(280) { inner.dispose() }
        scheduler.start()
        XCTAssertEqual(members.events, [.next(210, 1), .next(220, 3), .next(260, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 280)])
    }

    func testGroupByKeySelectorThatThrowsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let observer = scheduler.start { xs.groupBy { value -> Int in if value == 2 { throw TestError() }; return value }.map { $0.key } }
        XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError())])
    }

    func testRetryWhenResubscribesOnEachTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let observer = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in errors.scan(0) { count, _ in count + 1 }.take(while: { $0 < 3 }) })
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testRetryWhenPassesOnTheTriggersErrorAndOtherErrorTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([Recorded<Event<Int>>.error(20, TestError(1))])
        let observer = scheduler.start { xs.retry(when: { (errors: Observable<TestError>) in errors.flatMap { Observable<Int>.error(TestError($0.id + 1)) } }) }
        XCTAssertEqual(observer.events, [.error(220, TestError(2))])

        struct Other: Error {}
        let again = TestScheduler(initialClock: 0)
        let ys = again.createColdObservable([Recorded<Event<Int>>.error(20, Other())])
        let untouched = again.start { ys.retry(when: { (errors: Observable<TestError>) in errors }) }
        XCTAssertEqual(untouched.events.count, 1)
        XCTAssertTrue(untouched.events.first?.value.error is Other, "an error of another type is passed on at once")
    }

    func testRetryWhenWithAFailingSourceAndATriggerThatAlwaysSaysAgainDoesNotGrowTheStack() {
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts < 10_000 ? .error(TestError()) : .just(attempts)
        }
        var result: Int?
        _ = source.retry(when: { (errors: Observable<Swift.Error>) in errors }).subscribe(onNext: { result = $0 })
        XCTAssertEqual(result, 10_000)
    }

    func testToArrayCollectsUntilCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { xs.toArray().asObservable() }.events, [.next(300, [1, 2]), .completed(300)])
        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(again.start { failing.toArray().asObservable() }.events, [.error(220, TestError())])
    }

    func testWithUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner {}
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var completed = false
        _ = subject.withUnretained(owner!).subscribe(onNext: { received.append($0.1) }, onCompleted: { completed = true })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
    }

    func testDecodeDecodesEachElement() {
        struct Point: Decodable, Equatable { let x: Int }
        let data = [#"{"x":1}"#, #"{"x":"no"}"#].map { Data($0.utf8) }
        var points: [Point] = []
        var failed = false
        _ = Observable.from(data).decode(type: Point.self, decoder: JSONDecoder()).subscribe(onNext: { points.append($0) }, onError: { _ in failed = true })
        XCTAssertEqual(points, [Point(x: 1)])
        XCTAssertTrue(failed)
    }
}
