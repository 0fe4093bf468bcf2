import RxSchedulers
import RxSchedulersTesting
import XCTest

/// `Single`: creation, subscription, its operators and the conversions, in virtual time.
final class SingleTests: RxTestCase {
    func testCreateSendsTheFirstOutcomeOnlyAndDisposesAfterIt() {
        var disposed = 0
        var events: [SingleEvent<Int>] = []
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(TestError()))
            return Disposables.create { disposed += 1 }
        }
        _ = single.subscribe { events.append($0) }
        XCTAssertEqual(events.count, 1)
        if case .success(let value) = events.first { XCTAssertEqual(value, 1) } else { XCTFail("\(events)") }
        XCTAssertEqual(disposed, 1, "the create closure's disposable is disposed once the single ended")
    }

    func testSubscribeWithClosuresRunsOnDisposedAfterTheOutcome() {
        var log: [String] = []
        _ = Single.just(3).subscribe(onSuccess: { log.append("success \($0)") }, onFailure: { _ in log.append("failure") }, onDisposed: { log.append("disposed") })
        _ = Single<Int>.error(TestError(1)).subscribe(onSuccess: { _ in log.append("success") }, onFailure: { log.append("failure \(($0 as? TestError)?.id ?? -1)") }, onDisposed: { log.append("disposed") })
        let never = Single<Int>.never().subscribe(onDisposed: { log.append("never disposed") })
        XCTAssertEqual(log, ["success 3", "disposed", "failure 1", "disposed"])
        never.dispose()
        XCTAssertEqual(log.last, "never disposed")
    }

    func testSubscribeWithAnObjectStopsOnceTheObjectIsGone() {
        final class Owner {}
        var owner: Owner? = Owner()
        var calls = 0
        let subject = PublishSubject<Int>()
        let subscription = subject.take(1).asSingle().subscribe(with: owner!, onSuccess: { _, _ in calls += 1 })
        owner = nil
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(calls, 0)
        subscription.dispose()
    }

    func testAsSingleWantsExactlyOneElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { one.asSingle().asObservable() }.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(one.subscriptions, [Subscription(200, 250)])

        let again = TestScheduler(initialClock: 0)
        let two = again.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(again.start { two.asSingle().asObservable() }.events, [.error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(two.subscriptions, [Subscription(200, 220)], "the source is let go at the second element")

        let third = TestScheduler(initialClock: 0)
        let none = third.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(third.start { none.asSingle().asObservable() }.events, [.error(250, RxError.noElements)])
    }

    func testFirstIsTheFirstElementOrNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(scheduler.start { source.first().asObservable() }.events, [.next(210, Optional(1)), .completed(210)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])

        let again = TestScheduler(initialClock: 0)
        let empty = again.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(again.start { empty.first().asObservable() }.events, [.next(250, nil), .completed(250)])
    }

    func testOperatorsKeepOrNarrowTheTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let single = Single.just(4)
        XCTAssertEqual(scheduler.start { single.map { $0 * 2 }.asObservable() }.events, [.next(200, 8), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { single.filter { $0 > 5 }.asObservable() }.events, [.completed(200)], "filter gives a Maybe")
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { single.compactMap { $0 > 5 ? $0 : nil }.asObservable() }.events, [.completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { single.flatMap { Single.just("\($0)") }.asObservable() }.events, [.next(200, "4"), .completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { single.flatMapMaybe { _ in Maybe<String>.empty() }.asObservable() }.events, [.completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { single.flatMapCompletable { _ in Completable.empty() }.asObservable() }.events,
            [Recorded<Event<Never>>.completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Single<Int>.error(TestError()).catchAndReturn(9).asObservable() }.events,
            [.next(200, 9), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { single.asCompletable().asObservable() }.events, [Recorded<Event<Never>>.completed(200)])
    }

    func testDelayAndTimerRunOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.start { Single.just(1).delay(.seconds(30), scheduler: scheduler).asObservable() }.events, [.next(230, 1), .completed(231)],
            "the completion is its own scheduled step, as in RxSwift")
        let again = TestScheduler(initialClock: 0)
        XCTAssertEqual(again.start { Single<Int>.timer(.seconds(15), scheduler: again).asObservable() }.events, [.next(215, 0), .completed(215)])
    }

    func testZipOfACollectionWaitsForEveryOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let second = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let zipped = { Single.zip([first.asSingle(), second.asSingle()]) { $0.reduce(0, +) }.asObservable() }
        XCTAssertEqual(scheduler.start(zipped).events, [.next(230, 3), .completed(230)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Single<Int>.zip([Single<Int>]()).asObservable() }.events, [.next(200, []), .completed(200)])
    }

    func testZipOfTwoSinglesMakesATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start { Single.zip(Single.just(1), Single.just("a")).map { "\($0.0)\($0.1)" }.asObservable() }
        XCTAssertEqual(observer.events, [.next(200, "1a"), .completed(200)])
    }

    func testRetryWhenResubscribesUntilItSucceeds() {
        var attempts = 0
        let single = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(TestError(attempts)) : .just(attempts)
        }
        var result: Int?
        _ = single.retry(when: { (errors: Observable<Swift.Error>) in errors }).subscribe(onSuccess: { result = $0 })
        XCTAssertEqual(result, 3)
    }

    func testValueAwaitsTheElementOrThrows() async throws {
        let value = try await Single.just(5).value
        XCTAssertEqual(value, 5)
        do {
            _ = try await Single<Int>.error(TestError(2)).value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(2))
        }
    }

    func testCreateFromAsyncWorkSucceedsAndCancelsItsTaskOnDispose() async throws {
        let value = try await Single<Int>.create { 7 }.value
        XCTAssertEqual(value, 7)
        let started = expectation(description: "the work started")
        let cancelled = expectation(description: "the work saw its cancellation")
        let subscription = Single<Int>.create {
            started.fulfill()
            while !Task.isCancelled { await Task.yield() }
            cancelled.fulfill()
            return 0
        }.subscribe()
        await fulfillment(of: [started], timeout: 30)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 30)
    }
}
