import RxSchedulers
import RxSchedulersTesting
import XCTest

final class TransformingTests: RxTestCase {
    func testMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let observer = scheduler.start { source.map { $0 * 10 } }
        XCTAssertEqual(observer.events, [.next(210, 20), .next(220, 30), .completed(300)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    func testMapThrowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start {
            source.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    func testFilter() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .error(250, TestError())])
        let observer = scheduler.start { source.filter { $0 % 2 == 0 } }
        XCTAssertEqual(observer.events, [.next(220, 2), .next(240, 4), .error(250, TestError())])
    }

    func testFilterThrowingEndsTheSequenceAndUnsubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(300)])
        let observer = scheduler.start {
            source.filter { value -> Bool in
                if value == 3 { throw TestError(3) }
                return true
            }
        }
        XCTAssertEqual(observer.events, [.next(210, 2), .error(220, TestError(3))])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    func testCompactMapLeavesOutNilsAndEndsOnAThrow() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(300)])
        let observer = scheduler.start {
            source.compactMap { value -> String? in
                if value == 5 { throw TestError(5) }
                return value % 2 == 0 ? "\(value)" : nil
            }
        }
        XCTAssertEqual(observer.events, [.next(210, "2"), .next(230, "4"), .error(240, TestError(5))])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
    }

    func testScanEmitsEachIntermediateResultAndStartsAgainPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let scanned = source.scan(100) { $0 + $1 }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = scanned.subscribe(first) }
        // A second subscription, while the first still runs, starts from the seed again.
        scheduler.scheduleAt(215) { _ = scanned.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 101), .next(220, 103), .next(230, 106), .completed(240)])
        XCTAssertEqual(second.events, [.next(225, 101), .next(235, 103), .next(245, 106), .completed(255)])
    }

    func testScanIntoMutatesInPlaceAndEndsOnAThrow() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start {
            source.scan(into: [Int]()) { array, value in
                if value == 3 { throw TestError(3) }
                array.append(value)
            }
        }
        XCTAssertEqual(observer.events, [.next(210, [1]), .next(220, [1, 2]), .error(230, TestError(3))])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testFilterDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 2), .next(400, 4), .completed(500)])
        let observer = scheduler.start(disposed: 300) { source.filter { _ in true } }
        XCTAssertEqual(observer.events, [.next(210, 2)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    func testDoRunsSideEffectsInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        var log: [String] = []
        let observer = scheduler.start {
            source.do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(log, ["onSubscribe", "onSubscribed", "onNext 1", "afterNext 1", "onCompleted", "afterCompleted", "onDispose"])
    }

    func testDoThrowingBecomesError() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        var errorSeen = false
        let observer = scheduler.start {
            source.do(onNext: { if $0 == 2 { throw TestError(5) } }, onError: { _ in errorSeen = true })
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(5))])
        XCTAssertFalse(errorSeen, "onError sees upstream errors, not the one do itself raised")
    }

    func testTake() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start { source.take(2) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
        let zero = TestScheduler(initialClock: 0)
        XCTAssertEqual(zero.start { Observable<Int>.never().take(0) }.events, [.completed(200)])
    }

    func testTakeWhile() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300)])
        let exclusive = scheduler.start { source.take(while: { $0 < 3 }) }
        XCTAssertEqual(exclusive.events, [.next(210, 1), .next(220, 2), .completed(230)])
        let again = TestScheduler(initialClock: 0)
        let source2 = again.createHotObservable([.next(210, 1), .next(230, 5), .next(240, 1)])
        let inclusive = again.start { source2.take(while: { $0 < 3 }, behavior: .inclusive) }
        XCTAssertEqual(inclusive.events, [.next(210, 1), .next(230, 5), .completed(230)])
    }

    func testDistinctUntilChanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1), .completed(300)])
        let observer = scheduler.start { source.distinctUntilChanged() }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .next(250, 1), .completed(300)])
        let keyed = TestScheduler(initialClock: 0)
        let words = keyed.createHotObservable([.next(210, "a"), .next(220, "A"), .next(230, "b")])
        let byKey = keyed.start { words.distinctUntilChanged { $0.lowercased() } }
        XCTAssertEqual(byKey.events, [.next(210, "a"), .next(230, "b")])
        let paths = TestScheduler(initialClock: 0)
        let counts = paths.createHotObservable([.next(210, "ab"), .next(220, "cd"), .next(230, "efg")])
        let byKeyPath = paths.start { counts.distinctUntilChanged(at: \.count) }
        XCTAssertEqual(byKeyPath.events, [.next(210, "ab"), .next(230, "efg")])
    }

    func testCatchAndCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
        let fallback = scheduler.createColdObservable([.next(10, 100), .completed(20)])
        let observer = scheduler.start { source.catch { _ in fallback.asObservable() } }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(240, 100), .completed(250)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(230, 250)])

        let again = TestScheduler(initialClock: 0)
        let failing = again.createHotObservable([.next(210, 1), .error(230, TestError())])
        let recovered = again.start { failing.catchAndReturn(-1) }
        XCTAssertEqual(recovered.events, [.next(210, 1), .next(230, -1), .completed(230)])

        let third = TestScheduler(initialClock: 0)
        let rethrowing = third.createHotObservable([Recorded<Event<Int>>.error(230, TestError(1))])
        let failed = third.start { rethrowing.catch { _ in throw TestError(2) } }
        XCTAssertEqual(failed.events, [.error(230, TestError(2))])
    }
}

/// skip(_:) and enumerated().
final class SkipAndEnumeratedTests: RxTestCase {
    func testSkipDropsTheFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let observer = scheduler.start { source.skip(2) }
        XCTAssertEqual(observer.events, [.next(230, 3), .completed(300)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    func testSkipZeroAndSkipPastTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(scheduler.start { source.skip(0) }.events, [.next(210, 1), .error(220, TestError())])
        let again = TestScheduler(initialClock: 0)
        let short = again.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(again.start { short.skip(5) }.events, [.completed(220)])
    }

    func testEnumeratedPairsEachElementWithItsIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        let observer = scheduler.start { source.enumerated().map { "\($0.index)\($0.element)" } }
        XCTAssertEqual(observer.events, [.next(210, "0a"), .next(220, "1b"), .completed(230)])
    }
}
