import Foundation
import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersTesting
import XCTest

final class DriverTests: SharedSequenceTestCase {
    func testAnErrorBecomesTheFallbackElementThenCompletion() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError()), .next(240, 3)])
        let driver = source.asDriver(onErrorJustReturn: -1)
        let observer = scheduler.start { driver }
        // Delivered through the sharing scheduler: one virtual tick after each source event.
        XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 2), .next(231, -1), .completed(231)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testAnErrorSwitchesToTheFallbackDriver() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let fallback = scheduler.createColdObservable([.next(5, 10), .completed(10)])
        let driver = source.asDriver(onErrorDriveWith: fallback.asDriver(onErrorJustReturn: 0))
        let observer = scheduler.start { driver }
        XCTAssertEqual(observer.events, [.next(211, 1), .next(227, 10), .completed(232)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(221, 231)])
    }

    func testAnErrorIsHandedToTheRecovery() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        var recovered: [Error] = []
        let driver = source.asDriver(onErrorRecover: { error in
            recovered.append(error)
            return Driver.just(99)
        })
        let observer = scheduler.start { driver }
        XCTAssertEqual(observer.events, [.next(211, 1), .next(222, 99), .completed(222)])
        XCTAssertEqual(recovered.count, 1)
        XCTAssertTrue(recovered.first is TestError)
    }

    /// Observers share one subscription; a late one gets the latest element at once; after
    /// the last one leaves, the next subscribes afresh and nothing is replayed.
    func testObserversShareOneSubscriptionAndALateOneGetsTheLatestElement() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .next(510, 4)])
        let driver = source.asDriver(onErrorJustReturn: 0)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let afterReset = scheduler.createObserver(Int.self)
        subscribe(driver.asObservable(), first, at: 200, until: 300)
        subscribe(driver.asObservable(), late, at: 250, until: 400)
        subscribe(driver.asObservable(), afterReset, at: 500, until: 600)
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .next(261, 3)])
        XCTAssertEqual(late.events, [.next(250, 2), .next(261, 3)], "the latest element, replayed as it subscribes")
        XCTAssertEqual(afterReset.events, [.next(511, 4)], "nothing replayed once every observer had left")
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400), Subscription(500, 600)])
    }

    func testDriveDeliversToObserversAndClosures() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let driver = source.asDriver(onErrorJustReturn: 0)
        let one = scheduler.createObserver(Int.self)
        let two = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        var closures: [String] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(driver.drive(one, two))
            subscriptions.append(driver.drive(optional))
            subscriptions.append(
                driver.drive(
                    onNext: { closures.append("next \($0)") }, onCompleted: { closures.append("completed") },
                    onDisposed: { closures.append("disposed") }))
        }
        scheduler.start()
        XCTAssertEqual(one.events, [.next(211, 1), .next(221, 2), .completed(231)])
        XCTAssertEqual(two.events, one.events)
        XCTAssertEqual(optional.events, [.next(211, Optional(1)), .next(221, Optional(2)), .completed(231)])
        XCTAssertEqual(closures, ["next 1", "next 2", "completed", "disposed"])
        // The source's subscription ends as it completes (RxSwift's test observable does the same).
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)], "three drives, one subscription")
        subscriptions.forEach { $0.dispose() }
    }

    func testDriveWithAnObjectStopsCallingOnceItIsGone() {
        final class Screen { var shown: [Int] = [] }
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let driver = source.asDriver(onErrorJustReturn: 0)
        var screen: Screen? = Screen()
        weak let gone = screen
        var shownBeforeRelease: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = driver.drive(with: screen!, onNext: { screen, value in screen.shown.append(value) }) }
        scheduler.scheduleAt(220) {
            shownBeforeRelease = screen!.shown
            screen = nil
        }
        scheduler.start()
        XCTAssertEqual(shownBeforeRelease, [1])
        XCTAssertNil(gone, "the driver holds its object weakly")
        subscription?.dispose()
    }

    func testDriveWithATransformationHandsOverTheObservable() {
        let driver = Observable.just(5).asDriver(onErrorJustReturn: 0)
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = driver.drive { observable in observable.map { $0 * 2 }.subscribe(observer) }
        }
        scheduler.start()
        // observe(on:) on a virtual-time scheduler is RxSwift's: one scheduled action per event.
        XCTAssertEqual(observer.events, [.next(201, 10), .completed(202)])
        let curried = driver.drive({ observable in { (factor: Int) in factor } }, curriedArgument: 7)
        XCTAssertEqual(curried, 7)
        subscription?.dispose()
    }
}
