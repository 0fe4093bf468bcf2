import RxSchedulers
import RxSchedulersTesting
import XCTest

/// retry, ignoreElements, startWith, concatMap, flatMapFirst, switchLatest, take(until:)
/// and subscribe(with:), checked in virtual time as RxSwift's tests check them.
final class MoreOperatorsTests: RxTestCase {
    func testRetryResubscribesUntilTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let flaky = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? Observable.of(attempts).concat(Observable.error(TestError())) : .of(attempts)
        }
        let observer = scheduler.start { flaky.retry() }
        XCTAssertEqual(observer.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
    }

    func testRetryCountsAttemptsAndEndsWithTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let observer = scheduler.start { source.retry(2) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 1), .error(240, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testIgnoreElementsKeepsOnlyTheStop() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.start { source.ignoreElements() }
        XCTAssertEqual(observer.events.count, 1)
        XCTAssertEqual(observer.events.first?.time, 230)
        XCTAssertTrue(observer.events.first?.value.isStopEvent == true)
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testStartWithSendsItsElementsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 3), .completed(220)])
        let observer = scheduler.start { source.startWith(1, 2) }
        XCTAssertEqual(observer.events, [.next(200, 1), .next(200, 2), .next(210, 3), .completed(220)])
    }

    func testConcatMapRunsTheInnerSequencesOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        let inner = scheduler.createColdObservable([.next(5, 0), .completed(20)])
        let observer = scheduler.start { source.concatMap { value in inner.map { $0 + value } } }
        XCTAssertEqual(observer.events, [.next(215, 1), .next(235, 2), .completed(250)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230), Subscription(230, 250)])
    }

    /// While an inner sequence runs, new elements are dropped before the selector runs.
    func testFlatMapFirstDropsElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let inner = scheduler.createColdObservable([.next(5, 0), .completed(20)])
        var selected: [Int] = []
        let observer = scheduler.start {
            source.flatMapFirst { value -> Observable<Int> in
                selected.append(value)
                return inner.map { $0 + value }
            }
        }
        XCTAssertEqual(observer.events, [.next(215, 1), .next(245, 3), .completed(300)])
        XCTAssertEqual(selected, [1, 3], "the dropped element never reached the selector")
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 230), Subscription(240, 260)])
    }

    func testSwitchLatestFollowsTheNewestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let second = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let source = scheduler.createHotObservable([.next(210, first.asObservable()), .next(225, second.asObservable()), .completed(300)])
        let observer = scheduler.start { source.switchLatest() }
        XCTAssertEqual(observer.events, [.next(220, 1), .next(235, 3), .completed(300)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 225)])
    }

    func testTakeUntilAnotherSequenceSendsSomething() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let other = scheduler.createHotObservable([.next(220, "stop")])
        let observer = scheduler.start { source.take(until: other) }
        XCTAssertEqual(observer.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])

        let quiet = TestScheduler(initialClock: 0)
        let values = quiet.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let completesEarly = quiet.createHotObservable([Recorded<Event<String>>.completed(220)])
        let untilCompleted = quiet.start { values.take(until: completesEarly) }
        XCTAssertEqual(untilCompleted.events, [.next(210, 1), .next(230, 2), .completed(300)], "other completing changes nothing")

        let failing = TestScheduler(initialClock: 0)
        let more = failing.createHotObservable([.next(210, 1), .next(230, 2)])
        let error = failing.createHotObservable([Recorded<Event<String>>.error(220, TestError())])
        XCTAssertEqual(failing.start { more.take(until: error) }.events, [.next(210, 1), .error(220, TestError())])
    }

    func testTakeUntilAPredicateHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2)])
        XCTAssertEqual(scheduler.start { source.take(until: { $0 > 3 }) }.events, [.next(210, 1), .completed(220)])
        let inclusive = TestScheduler(initialClock: 0)
        let values = inclusive.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2)])
        XCTAssertEqual(
            inclusive.start { values.take(until: { $0 > 3 }, behavior: .inclusive) }.events, [.next(210, 1), .next(220, 5), .completed(220)])
    }

    func testSubscribeWithHoldsItsObjectWeakly() {
        final class Owner { var seen: [Int] = [] }
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        var disposedWithOwner = false
        let subscription = subject.subscribe(
            with: owner!, onNext: { owner, value in owner.seen.append(value) }, onDisposed: { _ in disposedWithOwner = true })
        subject.onNext(1)
        XCTAssertEqual(owner?.seen, [1])
        owner = nil
        XCTAssertNil(weakOwner, "the subscription does not keep its object alive")
        subject.onNext(2)
        subscription.dispose()
        XCTAssertFalse(disposedWithOwner, "with its object gone, no handler runs")
    }
}
