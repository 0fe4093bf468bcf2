import RxSchedulers
import RxSchedulersTesting
import XCTest

final class CombineLatestTests: RxTestCase {
    func testEachElementCombinesWithTheLatestOfTheOthersOnceAllHaveOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(400)])
        let letters = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(300)])
        let observer = scheduler.start { Observable.combineLatest(numbers, letters) { "\($0)\($1)" } }
        XCTAssertEqual(observer.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(400)])
        XCTAssertEqual(numbers.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(letters.subscriptions, [Subscription(200, 300)], "a completed source is unsubscribed at once")
    }

    func testTheTupleFormAndEveryArity() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { index in scheduler.createHotObservable([.next(200 + 10 * index, index), .completed(400)]) }
        let pair = scheduler.start { Observable.combineLatest(sources[0], sources[1]).map { "\($0.0)\($0.1)" } }
        XCTAssertEqual(pair.events, [.next(220, "12"), .completed(400)])
        let all = TestScheduler(initialClock: 0)
        let many = (1...8).map { index in all.createHotObservable([.next(200 + 10 * index, index), .completed(400)]) }
        let observers = [
            all.start { Observable.combineLatest(many[0], many[1], many[2]) { $0 + $1 + $2 } },
        ]
        XCTAssertEqual(observers[0].events, [.next(230, 6), .completed(400)])
        // Arities 4 to 8 through the same sink: each sums its sources once all have sent.
        let sums = (4...8).map { arity -> [Recorded<Event<Int>>] in
            let scheduler = TestScheduler(initialClock: 0)
            let s = (1...8).map { index in scheduler.createHotObservable([.next(200 + 10 * index, index), .completed(400)]) }
            let combined: Observable<Int>
            switch arity {
            case 4: combined = Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
            case 5: combined = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
            case 6: combined = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
            case 7: combined = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
            default: combined = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            }
            return scheduler.start { combined }.events
        }
        XCTAssertEqual(sums, (4...8).map { arity in [.next(200 + 10 * arity, arity * (arity + 1) / 2), .completed(400)] })
    }

    /// A source that completes without an element means no result can ever be made: the
    /// next element of another completes the sequence once every other source is done.
    func testCompletesWhenAnElementFindsEveryOtherSourceDoneWithoutAResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let numbers = scheduler.createHotObservable([.next(220, 1), .next(230, 2), .completed(500)])
        let observer = scheduler.start { Observable.combineLatest(empty, numbers) { $0 + $1 } }
        XCTAssertEqual(observer.events, [.completed(220)])
        XCTAssertEqual(numbers.subscriptions, [Subscription(200, 220)])
    }

    func testAnErrorOfAnySourceOrOfTheSelectorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let others = scheduler.createHotObservable([.next(220, 10), .next(240, 20)])
        let observer = scheduler.start { Observable.combineLatest(numbers, others) { $0 + $1 } }
        XCTAssertEqual(observer.events, [.next(220, 11), .error(230, TestError(1))])
        XCTAssertEqual(others.subscriptions, [Subscription(200, 230)])

        let again = TestScheduler(initialClock: 0)
        let a = again.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = again.createHotObservable([.next(220, 10)])
        let throwing = again.start {
            Observable.combineLatest(a, b) { x, y -> Int in
                if x == 2 { throw TestError(2) }
                return x + y
            }
        }
        XCTAssertEqual(throwing.events, [.next(220, 11), .error(230, TestError(2))])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 230)])
    }

    func testACollectionCombinesInItsOrderAndAnEmptyOneSendsOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (0..<3).map { index in scheduler.createHotObservable([.next(210 + index, index), .next(230 + index, 10 + index), .completed(300)]) }
        let observer = scheduler.start { Observable.combineLatest(sources) }
        XCTAssertEqual(
            observer.events,
            [.next(212, [0, 1, 2]), .next(230, [10, 1, 2]), .next(231, [10, 11, 2]), .next(232, [10, 11, 12]), .completed(300)])
        let empty = TestScheduler(initialClock: 0)
        let none = empty.start { Observable<Int>.combineLatest([Observable<Int>]()) { $0.count } }
        XCTAssertEqual(none.events, [.next(200, 0), .completed(200)])
    }
}
