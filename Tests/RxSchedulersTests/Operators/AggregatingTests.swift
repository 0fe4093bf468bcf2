import RxSchedulers
import RxSchedulersTesting
import XCTest

/// Operators that skip, pick or fold elements: skip(while:), skip(until:), takeLast,
/// reduce, element(at:), single, ifEmpty, materialize and dematerialize.
final class AggregatingTests: RxTestCase {
    private let numbers: [Recorded<Event<Int>>] = [.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 1), .completed(300)]

    func testSkipWhileStopsSkippingAtTheFirstFalse() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        XCTAssertEqual(scheduler.start { source.skip(while: { $0 < 2 }) }.events, [.next(220, 2), .next(230, 3), .next(240, 1), .completed(300)])
        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable(numbers)
        let observer = again.start { failing.skip(while: { value -> Bool in if value == 2 { throw TestError(2) }; return true }) }
        XCTAssertEqual(observer.events, [.error(220, TestError(2))])
    }

    func testSkipUntilForwardsOnlyAfterTheOtherSentAndCompletesOnlyThen() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        let other = scheduler.createHotObservable([.next(225, "go"), .completed(250)])
        XCTAssertEqual(scheduler.start { source.skip(until: other) }.events, [.next(230, 3), .next(240, 1), .completed(300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)], "other is let go once it sent")

        let quiet = TestScheduler(initialClock: 0)
        let never = quiet.createHotObservable(numbers)
        let silent = quiet.createHotObservable([Recorded<Event<String>>.completed(215)])
        XCTAssertEqual(quiet.start { never.skip(until: silent) }.events, [], "nothing, not even the completion (as RxSwift)")
    }

    func testTakeLastSendsTheLastOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        XCTAssertEqual(scheduler.start { source.takeLast(2) }.events, [.next(300, 3), .next(300, 1), .completed(300)])
        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(again.start { failing.takeLast(2) }.events, [.error(220, TestError())])
    }

    func testReduceFoldsAndMapsOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        XCTAssertEqual(scheduler.start { source.reduce(100, accumulator: +, mapResult: { "\($0)" }) }.events, [.next(300, "107"), .completed(300)])
        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable(numbers)
        let observer = again.start { failing.reduce(0) { sum, value -> Int in if value == 3 { throw TestError(3) }; return sum + value } }
        XCTAssertEqual(observer.events, [.error(230, TestError(3))])
    }

    func testElementAtAndItsRangeError() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        XCTAssertEqual(scheduler.start { source.element(at: 2) }.events, [.next(230, 3), .completed(230)])
        let again = TestScheduler(initialClock: 0)
        let short = again.createHotObservable(numbers)
        XCTAssertEqual(again.start { short.element(at: 9) }.events, [.error(300, RxError.argumentOutOfRange)])
    }

    func testSingleWantsExactlyOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(numbers)
        XCTAssertEqual(scheduler.start { source.single() }.events, [.next(210, 1), .error(220, RxError.moreThanOneElement)])
        let again = TestScheduler(initialClock: 0)
        let one = again.createHotObservable(numbers)
        XCTAssertEqual(again.start { one.single { $0 == 3 } }.events, [.next(230, 3), .completed(300)])
        let third = TestScheduler(initialClock: 0)
        let none = third.createHotObservable(numbers)
        XCTAssertEqual(third.start { none.single { $0 > 5 } }.events, [.error(300, RxError.noElements)])
    }

    func testIfEmptyGivesTheDefaultOrSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        XCTAssertEqual(scheduler.start { empty.ifEmpty(default: 7) }.events, [.next(250, 7), .completed(250)])
        let again = TestScheduler(initialClock: 0)
        let alsoEmpty = again.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let fallback = again.createColdObservable([.next(10, 8), .completed(20)])
        XCTAssertEqual(again.start { alsoEmpty.ifEmpty(switchTo: fallback.asObservable()) }.events, [.next(260, 8), .completed(270)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(250, 270)])
        let third = TestScheduler(initialClock: 0)
        let full = third.createHotObservable(numbers)
        XCTAssertEqual(third.start { full.ifEmpty(default: 7) }.events.count, 5, "a source with elements passes through")
    }

    func testMaterializeAndBack() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(scheduler.start { source.materialize() }.events.map(\.time), [210, 220, 220])
        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(again.start { failing.materialize().dematerialize() }.events, [.next(210, 1), .error(220, TestError())])
    }
}
