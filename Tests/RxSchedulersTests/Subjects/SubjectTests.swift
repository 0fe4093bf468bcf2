import RxSchedulers
import RxSchedulersTesting
import XCTest

final class SubjectTests: RxTestCase {
    func testPublishSubjectSendsOnlyWhatComesAfterSubscription() {
        let subject = PublishSubject<Int>()
        var received: [Event<Int>] = []
        subject.onNext(1)
        let subscription = subject.subscribe { received.append($0) }
        XCTAssertTrue(subject.hasObservers)
        subject.onNext(2)
        subject.onNext(3)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(4)
        XCTAssertEqual(received, [.next(2), .next(3)])
    }

    func testPublishSubjectReplaysStopEventToLateSubscribers() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        subject.onNext(1)
        var received: [Event<Int>] = []
        _ = subject.subscribe { received.append($0) }
        XCTAssertEqual(received, [.completed])
    }

    func testPublishSubjectAfterDisposeSendsDisposedError() {
        let subject = PublishSubject<Int>()
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        var error: Error?
        _ = subject.subscribe(onError: { error = $0 })
        guard case .disposed? = error as? RxError else { return XCTFail("expected RxError.disposed, got \(String(describing: error))") }
    }

    func testPublishSubjectAllowsReentrantOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
        })
        subject.onNext(1)
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
    }

    /// The one-observer path and the array path, crossing between them mid-delivery:
    /// an observer added during a delivery sees only later events, one removed during a
    /// delivery sees nothing more, and a stop event reaches every observer once.
    func testPublishSubjectDeliversToObserversAddedAndRemovedDuringDelivery() {
        let subject = PublishSubject<Int>()
        var first: [Event<Int>] = []
        var second: [Event<Int>] = []
        var secondSubscription: Disposable?
        let firstSubscription = subject.subscribe { event in
            first.append(event)
            if case .next(1) = event {
                secondSubscription = subject.subscribe { second.append($0) }
            }
            if case .next(3) = event { secondSubscription?.dispose() }
        }
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onNext(4)
        XCTAssertEqual(second, [.next(2), .next(3)])
        secondSubscription = subject.subscribe { second.append($0) }
        subject.onCompleted()
        subject.onNext(5)
        XCTAssertEqual(first, [.next(1), .next(2), .next(3), .next(4), .completed])
        XCTAssertEqual(second, [.next(2), .next(3), .completed])
        XCTAssertFalse(subject.hasObservers)
        firstSubscription.dispose()
        secondSubscription?.dispose()
    }

    /// A stop event sent to a single observer ends the subject (no fast path skips that).
    func testPublishSubjectStopsAfterAStopEventToItsOnlyObserver() {
        let subject = PublishSubject<Int>()
        var only: [Event<Int>] = []
        _ = subject.subscribe { only.append($0) }
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        XCTAssertEqual(only, [.next(1), .completed])
        XCTAssertFalse(subject.hasObservers)
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late, [.completed])
    }

    func testBehaviorSubjectReplaysLatestValue() throws {
        let subject = BehaviorSubject(value: 0)
        XCTAssertEqual(try subject.value(), 0)
        subject.onNext(1)
        var received: [Event<Int>] = []
        _ = subject.subscribe { received.append($0) }
        subject.onNext(2)
        subject.onError(TestError(1))
        XCTAssertEqual(received, [.next(1), .next(2), .error(TestError(1))])
        XCTAssertThrowsError(try subject.value())
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late, [.error(TestError(1))])
    }

    func testBehaviorSubjectDisposed() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertThrowsError(try subject.value())
    }

    func testSubjectsInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(300, 3), .completed(400)])
        let subject = PublishSubject<Int>()
        scheduler.scheduleAt(100) { _ = source.subscribe(subject) }
        let observer = scheduler.start { subject }
        XCTAssertEqual(observer.events, [.next(210, 2), .next(300, 3), .completed(400)])
    }
}

final class SubjectLifetimeTests: XCTestCase {
    /// A subscription nobody disposes must not keep its subject alive: the subject holds
    /// the subscriber, whose chain holds the subscription's disposable, which holds the
    /// subject weakly (as RxSwift's does). The subscriber's own sink and disposer stay (a
    /// subscription lives until it ends or is disposed, as in RxSwift), so this test does
    /// not check `Resources.total`.
    func testASubjectWithSubscriptionsNeverDisposedIsReleased() {
        weak var publish: PublishSubject<Int>?
        weak var behavior: BehaviorSubject<Int>?
        weak var replay: ReplaySubject<Int>?
        weak var async: AsyncSubject<Int>?
        do {
            let publishSubject = PublishSubject<Int>()
            let behaviorSubject = BehaviorSubject(value: 0)
            let replaySubject = ReplaySubject<Int>.create(bufferSize: 1)
            let asyncSubject = AsyncSubject<Int>()
            (publish, behavior, replay, async) = (publishSubject, behaviorSubject, replaySubject, asyncSubject)
            _ = publishSubject.map { $0 + 1 }.subscribe(onNext: { _ in })
            _ = behaviorSubject.catchAndReturn(0).subscribe(onNext: { _ in })
            _ = replaySubject.filter { $0 > 0 }.subscribe(onNext: { _ in })
            _ = asyncSubject.subscribe(onNext: { _ in })
            publishSubject.onNext(1)
            behaviorSubject.onNext(1)
            replaySubject.onNext(1)
        }
        XCTAssertNil(publish)
        XCTAssertNil(behavior)
        XCTAssertNil(replay)
        XCTAssertNil(async)
    }
}
