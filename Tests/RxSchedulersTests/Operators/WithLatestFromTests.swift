import RxSchedulers
import RxSchedulersTesting
import XCTest

final class WithLatestFromTests: RxTestCase {
    func testEachElementTakesTheLatestOfTheSecondAndEarlierOnesAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let text = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
        let observer = scheduler.start { taps.withLatestFrom(text) { "\($0)\($1)" } }
        XCTAssertEqual(observer.events, [.next(230, "2a"), .next(250, "3b"), .completed(300)], "the second's completion does not end it")
        XCTAssertEqual(text.subscriptions, [Subscription(200, 245)])
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 300)])
    }

    func testTheLatestAloneAndErrorsOfEitherSide() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(230, 1), .next(250, 2)])
        let text = scheduler.createHotObservable([.next(220, "a"), .error(240, TestError())])
        let observer = scheduler.start { taps.withLatestFrom(text) }
        XCTAssertEqual(observer.events, [.next(230, "a"), .error(240, TestError())])
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 240)])

        let again = TestScheduler(initialClock: 0)
        let a = again.createHotObservable([.next(230, 1), .next(250, 2)])
        let b = again.createHotObservable([.next(220, 10)])
        let throwing = again.start {
            a.withLatestFrom(b) { x, y -> Int in
                if x == 2 { throw TestError(2) }
                return x + y
            }
        }
        XCTAssertEqual(throwing.events, [.next(230, 11), .error(250, TestError(2))])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
    }

    /// The second is subscribed first, so an element it sends synchronously is there for
    /// the first element of this sequence.
    func testTheSecondIsSubscribedFirst() {
        var received: [Int] = []
        _ = Observable.of(1, 2).withLatestFrom(Observable.just(10)) { $0 + $1 }.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [11, 12])
    }
}
