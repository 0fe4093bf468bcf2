import RxSchedulers
import RxSchedulersTesting
import XCTest

/// `Completable`: creation, subscription, `andThen`, `concat`, `zip`, in virtual time.
final class CompletableTests: RxTestCase {
    func testCreateAndSubscribe() {
        var log: [String] = []
        let completable = Completable.create { observer in
            observer(.completed)
            observer(.error(TestError()))
            return Disposables.create { log.append("disposed") }
        }
        _ = completable.subscribe(onCompleted: { log.append("completed") }, onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["completed", "disposed"])
    }

    func testAndThenSubscribesTheNextOnlyAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(15)])
        let observer = scheduler.start { first.asObservable().asCompletable().andThen(second.asObservable()) }
        XCTAssertEqual(observer.events, [.next(230, 1), .completed(235)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 235)])
    }

    func testAndThenStopsAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Never>>.error(20, TestError())])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(15)])
        let observer = scheduler.start { first.asObservable().asCompletable().andThen(second.asObservable().asSingle()).asObservable() }
        XCTAssertEqual(observer.events, [.error(220, TestError())])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testConcatRunsInTurnAndZipAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)])
        let second = scheduler.createColdObservable([Recorded<Event<Never>>.completed(30)])
        XCTAssertEqual(
            scheduler.start { Completable.concat(first.asObservable().asCompletable(), second.asObservable().asCompletable()).asObservable() }.events,
            [.completed(250)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])

        let again = TestScheduler(initialClock: 0)
        let third = again.createColdObservable([Recorded<Event<Never>>.completed(20)])
        let fourth = again.createColdObservable([Recorded<Event<Never>>.completed(30)])
        XCTAssertEqual(
            again.start { Completable.zip(third.asObservable().asCompletable(), fourth.asObservable().asCompletable()).asObservable() }.events,
            [.completed(230)])
        XCTAssertEqual(fourth.subscriptions, [Subscription(200, 230)])
    }

    func testValueAwaitsCompletion() async throws {
        try await Completable.empty().value
        do {
            try await Completable.error(TestError(3)).value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(3))
        }
    }
}
