import RxSchedulers
import RxSchedulersTesting
import XCTest

/// `Maybe`: creation, subscription, its operators and `asMaybe`, in virtual time.
final class MaybeTests: RxTestCase {
    func testCreateSendsTheFirstOutcomeOnly() {
        var outcomes: [String] = []
        let maybe = Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        }
        _ = maybe.subscribe(onSuccess: { outcomes.append("success \($0)") }, onError: { _ in outcomes.append("error") }, onCompleted: { outcomes.append("completed") })
        XCTAssertEqual(outcomes, ["completed"])
    }

    func testAsMaybeAllowsNoneButNotTwo() {
        let scheduler = TestScheduler(initialClock: 0)
        let none = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(scheduler.start { none.asMaybe().asObservable() }.events, [.completed(250)])

        let again = TestScheduler(initialClock: 0)
        let one = again.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(again.start { one.asMaybe().asObservable() }.events, [.next(250, 1), .completed(250)])

        let third = TestScheduler(initialClock: 0)
        let two = third.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(third.start { two.asMaybe().asObservable() }.events, [.error(220, RxError.moreThanOneElement)])
    }

    func testIfEmptyTurnsAMaybeIntoASingle() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Maybe<Int>.empty().ifEmpty(default: 5).asObservable() }.events, [.next(200, 5), .completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe<Int>.empty().ifEmpty(switchTo: Single.just(6)).asObservable() }.events,
            [.next(200, 6), .completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe.just(1).ifEmpty(switchTo: Maybe.just(6)).asObservable() }.events,
            [.next(200, 1), .completed(200)])
    }

    func testOperators() {
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe.just(2).map { $0 + 1 }.asObservable() }.events, [.next(200, 3), .completed(200)])
        XCTAssertEqual(TestScheduler(initialClock: 0).start { Maybe.just(2).filter { $0 > 2 }.asObservable() }.events, [.completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe.just(2).flatMap { Maybe.just("\($0)") }.asObservable() }.events,
            [.next(200, "2"), .completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe<Int>.error(TestError()).catchAndReturn(0).asObservable() }.events,
            [.next(200, 0), .completed(200)])
        var log: [String] = []
        _ = Maybe.just(1).do(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDispose: { log.append("dispose") }).subscribe()
        XCTAssertEqual(log, ["next 1", "completed", "dispose"])
    }

    func testZipOfMaybesIsEmptyWhenOneIs() {
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 }.asObservable() }.events,
            [.completed(200)])
        XCTAssertEqual(
            TestScheduler(initialClock: 0).start { Maybe.zip(Maybe.just(1), Maybe.just(2)) { $0 + $1 }.asObservable() }.events,
            [.next(200, 3), .completed(200)])
    }

    func testValueIsTheElementOrNil() async throws {
        let some = try await Maybe.just(4).value
        XCTAssertEqual(some, 4)
        let none = try await Maybe<Int>.empty().value
        XCTAssertNil(none)
    }
}
