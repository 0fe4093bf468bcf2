import RxSchedulers
import RxSchedulersTesting
import XCTest

final class ZipTests: RxTestCase {
    func testTheNthElementsCombineAndALeadingSourceWaitsInItsQueue() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
        let letters = scheduler.createHotObservable([.next(240, "a"), .next(250, "b"), .completed(260)])
        let observer = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
        XCTAssertEqual(observer.events, [.next(240, "1a"), .next(250, "2b"), .completed(400)], "completes once both have")
        XCTAssertEqual(letters.subscriptions, [Subscription(200, 260)])
    }

    func testTheTupleFormAndEveryArity() {
        let sums = (2...8).map { arity -> [Recorded<Event<Int>>] in
            let scheduler = TestScheduler(initialClock: 0)
            let s = (1...8).map { index in scheduler.createHotObservable([.next(200 + 10 * index, index), .next(300 + index, 10 * index), .completed(400)]) }
            let zipped: Observable<Int>
            switch arity {
            case 2: zipped = Observable.zip(s[0], s[1]).map { $0.0 + $0.1 }
            case 3: zipped = Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }
            case 4: zipped = Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
            case 5: zipped = Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
            case 6: zipped = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
            case 7: zipped = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
            default: zipped = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            }
            return scheduler.start { zipped }.events
        }
        XCTAssertEqual(sums, (2...8).map { arity in [.next(200 + 10 * arity, arity * (arity + 1) / 2), .next(300 + arity, 5 * arity * (arity + 1)), .completed(400)] })
    }

    func testAnErrorEndsItAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let others = scheduler.createHotObservable([.next(215, 10), .error(225, TestError())])
        let observer = scheduler.start { Observable.zip(numbers, others) { $0 + $1 } }
        XCTAssertEqual(observer.events, [.next(215, 11), .error(225, TestError())])
        XCTAssertEqual(numbers.subscriptions, [Subscription(200, 225)])
    }

    /// The collection form, as RxSwift's: it also completes when an element arrives that
    /// cannot be combined and every other source is done.
    func testACollectionZipsInItsOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let b = scheduler.createHotObservable([.next(215, 10), .completed(225)])
        let observer = scheduler.start { Observable.zip([a, b]) }
        XCTAssertEqual(observer.events, [.next(215, [1, 10]), .completed(230)], "3 can never be combined: b is done")
        let empty = TestScheduler(initialClock: 0)
        XCTAssertEqual(empty.start { Observable<Int>.zip([Observable<Int>]()) }.events, [.completed(200)])
    }
}
