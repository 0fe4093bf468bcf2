import RxSchedulers
import RxSchedulersTesting
import XCTest

final class CreationTests: RxTestCase {
    private func events<Element>(_ observable: Observable<Element>) -> [Event<Element>] {
        var received: [Event<Element>] = []
        _ = observable.subscribe { received.append($0) }
        return received
    }

    func testSynchronousCreationOperators() {
        XCTAssertEqual(events(Observable.just(1)), [.next(1), .completed])
        XCTAssertEqual(events(Observable.of(1, 2, 3)), [.next(1), .next(2), .next(3), .completed])
        XCTAssertEqual(events(Observable.from([4, 5])), [.next(4), .next(5), .completed])
        XCTAssertEqual(events(Observable.from(Set([9]))), [.next(9), .completed])
        XCTAssertEqual(events(Observable<Int>.range(start: 3, count: 3)), [.next(3), .next(4), .next(5), .completed])
        XCTAssertEqual(events(Observable<Int>.range(start: 0, count: 0)), [.completed])
        XCTAssertEqual(events(Observable<Int>.empty()), [.completed])
        XCTAssertEqual(events(Observable<Int>.error(TestError(2))), [.error(TestError(2))])
        XCTAssertEqual(events(Observable<Int>.never()), [])
        XCTAssertEqual(events(Observable.from(optional: 7)), [.next(7), .completed])
        XCTAssertEqual(events(Observable<Int>.from(optional: nil)), [.completed])
    }

    func testCreateEnforcesTheGrammar() {
        let observable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            return Disposables.create()
        }
        XCTAssertEqual(events(observable), [.next(1), .completed])
    }

    func testCreateDisposesItsResourceOnCompletionAndOnDispose() {
        var disposed = 0
        let completing = Observable<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { disposed += 1 }
        }
        _ = completing.subscribe()
        XCTAssertEqual(disposed, 1)
        let endless = Observable<Int>.create { _ in Disposables.create { disposed += 1 } }
        let subscription = endless.subscribe()
        XCTAssertEqual(disposed, 1)
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(disposed, 2)
    }

    func testDeferredCreatesPerSubscription() {
        var made = 0
        let observable = Observable<Int>.deferred {
            made += 1
            return .just(made)
        }
        XCTAssertEqual(events(observable), [.next(1), .completed])
        XCTAssertEqual(events(observable), [.next(2), .completed])
        let failing = Observable<Int>.deferred { throw TestError(3) }
        XCTAssertEqual(events(failing), [.error(TestError(3))])
    }

    func testSubscribeClosuresAndOnDisposed() {
        var log: [String] = []
        _ = Observable.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, ["next 1", "next 2", "completed", "disposed"])
        log = []
        let subscription = Observable<Int>.never().subscribe(onDisposed: { log.append("disposed") })
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
        log = []
        _ = Observable<Int>.error(TestError()).subscribe(onError: { _ in log.append("error") }, onDisposed: { log.append("disposed") })
        XCTAssertEqual(log, ["error", "disposed"])
    }

    func testSchedulerArgumentsInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let just = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(just.events, [.next(201, 42), .completed(202)])

        let again = TestScheduler(initialClock: 0)
        let sequence = again.start { Observable.of(1, 2, scheduler: again) }
        XCTAssertEqual(sequence.events, [.next(201, 1), .next(202, 2), .completed(203)])

        let third = TestScheduler(initialClock: 0)
        let range = third.start { Observable<Int>.range(start: 5, count: 2, scheduler: third) }
        XCTAssertEqual(range.events, [.next(201, 5), .next(202, 6), .completed(203)])

        // from(optional:scheduler:): the element in one action, the completion in the next.
        let fourth = TestScheduler(initialClock: 0)
        let some = fourth.start { Observable.from(optional: 3, scheduler: fourth) }
        XCTAssertEqual(some.events, [.next(201, 3), .completed(202)])
        let fifth = TestScheduler(initialClock: 0)
        let none = fifth.start { Observable<Int>.from(optional: nil, scheduler: fifth) }
        XCTAssertEqual(none.events, [.completed(201)])
        let sixth = TestScheduler(initialClock: 0)
        let cancelled = sixth.start(created: 100, subscribed: 200, disposed: 201) { Observable.from(optional: 3, scheduler: sixth) }
        XCTAssertEqual(cancelled.events, [], "disposed before its action ran, nothing is delivered")
    }

    func testTimerAndIntervalInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let oneShot = scheduler.start { Observable<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(oneShot.events, [.next(230, 0), .completed(230)])

        let periodic = TestScheduler(initialClock: 0)
        let timer = periodic.start(disposed: 290) { Observable<Int>.timer(.seconds(20), period: .seconds(25), scheduler: periodic) }
        XCTAssertEqual(timer.events, [.next(220, 0), .next(245, 1), .next(270, 2)])

        let intervalScheduler = TestScheduler(initialClock: 0)
        let interval = intervalScheduler.start(disposed: 260) { Observable<Int64>.interval(.seconds(15), scheduler: intervalScheduler) }
        XCTAssertEqual(interval.events, [.next(215, 0), .next(230, 1), .next(245, 2)])
    }
}
