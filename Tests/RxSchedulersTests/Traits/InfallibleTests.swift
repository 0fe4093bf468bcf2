import RxSchedulers
import RxSchedulersTesting
import XCTest

/// `Infallible`: creation, conversion from sequences that fail, and its operators.
final class InfallibleTests: RxTestCase {
    func testAsInfallibleReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(scheduler.start { source.asInfallible(onErrorJustReturn: 0).asObservable() }.events, [.next(210, 1), .next(220, 0), .completed(220)])

        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(
            again.start { failing.asInfallible(onErrorFallbackTo: .of(7, 8)).asObservable() }.events,
            [.next(210, 1), .next(220, 7), .next(220, 8), .completed(220)])

        let third = TestScheduler(initialClock: 0)
        let alsoFailing = third.createHotObservable([Recorded<Event<Int>>.error(230, TestError(4))])
        XCTAssertEqual(
            third.start { alsoFailing.asInfallible(onErrorRecover: { .just(($0 as? TestError)?.id ?? -1) }).asObservable() }.events,
            [.next(230, 4), .completed(230)])
    }

    func testCreateIgnoresEverythingAfterCompletion() {
        var events: [String] = []
        let infallible = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.completed)
            observer(.next(2))
            return Disposables.create()
        }
        _ = infallible.subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") }, onDisposed: { events.append("disposed") })
        XCTAssertEqual(events, ["1", "completed", "disposed"])
    }

    func testOperatorsStayInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start {
            Infallible.from([1, 2, 2, 3]).distinctUntilChanged().map { $0 * 10 }.filter { $0 > 10 }.scan(0, accumulator: +).startWith(-1).asObservable()
        }
        XCTAssertEqual(observer.events, [.next(200, -1), .next(200, 20), .next(200, 50), .completed(200)])
        let combined = TestScheduler(initialClock: 0).start {
            Infallible.combineLatest(Infallible.just(1), Infallible.just("a")) { "\($0)\($1)" }.asObservable()
        }
        XCTAssertEqual(combined.events, [.next(200, "1a"), .completed(200)])
        let zipped = TestScheduler(initialClock: 0).start { Infallible.zip(Infallible.of(1, 2), Infallible.of(10, 20)) { $0 + $1 }.asObservable() }
        XCTAssertEqual(zipped.events, [.next(200, 11), .next(200, 22), .completed(200)])
    }

    func testValuesEndsWhenItCompletes() async {
        var collected: [Int] = []
        for await value in Infallible.of(1, 2, 3).values { collected.append(value) }
        XCTAssertEqual(collected, [1, 2, 3])
    }
}
