import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

final class SubscribeOnTests: RxTestCase {
    func testSubscriptionAndDisposalHappenOnTheScheduler() {
        let key = DispatchSpecificKey<Int>()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "subscribe-on") { $0.setSpecific(key: key, value: 1) }
        let subscribedOn = Locked<Int?>(nil)
        let disposedOn = Locked<Int?>(nil)
        let subscribed = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let source = Observable<Int>.create { _ in
            subscribedOn.withValue { $0 = DispatchQueue.getSpecific(key: key) }
            subscribed.signal()
            return Disposables.create {
                disposedOn.withValue { $0 = DispatchQueue.getSpecific(key: key) }
                disposed.signal()
            }
        }
        let subscription = source.subscribe(on: scheduler).subscribe()
        XCTAssertEqual(subscribed.wait(timeout: .now() + 5), .success)
        subscription.dispose()
        XCTAssertEqual(disposed.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(subscribedOn.current, 1)
        XCTAssertEqual(disposedOn.current, 1)
    }

    func testDisposeBeforeTheScheduledSubscriptionCancelsIt() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let subscribed = Locked(false)
        let source = Observable<Int>.create { _ in
            subscribed.withValue { $0 = true }
            return Disposables.create()
        }
        let subscription = source.subscribe(on: OperationQueueScheduler(operationQueue: queue)).subscribe()
        subscription.dispose()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(subscribed.current)
    }

    func testSubscribeOnInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let observer = scheduler.start(disposed: 250) { source.subscribe(on: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(source.subscriptions, [Subscription(201, 251)])
    }

    /// A test observable is an `ObservableType` but not an `Observable`: its subscription
    /// must end only when the disposal scheduled on the scheduler runs (301), not inline
    /// when it completes (300), as RxSwift records it.
    func testASourceThatIsNotAnObservableIsDisposedOnlyOnTheScheduler() {
        for stop in [Recorded<Event<Int>>.completed(300), .error(300, TestError(1))] {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), stop])
            let observer = scheduler.start { source.subscribe(on: scheduler) }
            XCTAssertEqual(observer.events, [.next(210, 1), stop])
            XCTAssertEqual(source.subscriptions, [Subscription(201, 301)])
        }
        let cold = TestScheduler(initialClock: 0)
        let xs = cold.createColdObservable([.next(10, 1), .completed(20)])
        _ = cold.start { xs.subscribe(on: cold) }
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 222)])
    }
}
