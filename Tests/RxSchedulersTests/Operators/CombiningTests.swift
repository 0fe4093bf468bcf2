import RxSchedulers
import RxSchedulersTesting
import XCTest

final class CombiningTests: RxTestCase {
    func testFlatMapMergesInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(260)])
        let observer = scheduler.start {
            source.flatMap { value in
                Observable<Int>.timer(.seconds(5), period: .seconds(20), scheduler: scheduler).map { value * 10 + $0 }.take(2)
            }
        }
        XCTAssertEqual(observer.events, [.next(215, 10), .next(235, 11), .next(245, 20), .next(265, 21), .completed(265)])
    }

    func testFlatMapErrorFromInnerEndsAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let inner = scheduler.createColdObservable([.next(5, 7), .error(15, TestError())])
        let observer = scheduler.start { source.flatMap { _ in inner.asObservable() } }
        // Both inners have something due at 225; the first inner scheduled its error earlier.
        XCTAssertEqual(observer.events, [.next(215, 7), .error(225, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 225), Subscription(220, 225)])
    }

    func testFlatMapSelectorErrorAndOuterErrorEndEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let inner = scheduler.createColdObservable([.next(5, 7), .completed(100)])
        let observer = scheduler.start {
            source.flatMap { value -> Observable<Int> in
                if value == 2 { throw TestError() }
                return inner.asObservable()
            }
        }
        XCTAssertEqual(observer.events, [.next(215, 7), .error(220, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 220)])

        let failing = TestScheduler(initialClock: 0)
        let outer = failing.createHotObservable([.next(210, 1), .error(230, TestError())])
        let slow = failing.createColdObservable([.next(5, 7), .next(50, 8), .completed(60)])
        let failed = failing.start { outer.flatMap { _ in slow.asObservable() } }
        XCTAssertEqual(failed.events, [.next(215, 7), .error(230, TestError())])
        XCTAssertEqual(slow.subscriptions, [Subscription(210, 230)])
    }

    func testMergeCompletesAfterTheOuterAndEveryInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let inner = scheduler.createColdObservable([.next(30, 5), .completed(40)])
        let observer = scheduler.start { source.flatMap { _ in inner.asObservable() } }
        // The outer completes at 230, the inners at 250 and 260: completion waits for the last.
        XCTAssertEqual(observer.events, [.next(240, 5), .next(250, 5), .completed(260)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250), Subscription(220, 260)])
    }

    func testMergeOfObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let second = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let observer = scheduler.start { Observable.merge(first.asObservable(), second.asObservable()) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
        let nested = TestScheduler(initialClock: 0)
        let sources = nested.createHotObservable([.next(205, Observable.of(1, 2)), .completed(210)])
        XCTAssertEqual(nested.start { sources.merge() }.events, [.next(205, 1), .next(205, 2), .completed(210)])
    }

    func testFlatMapLatestFollowsOnlyTheNewest() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(40)])
        let second = scheduler.createColdObservable([.next(10, "b1"), .next(20, "b2"), .completed(30)])
        let source = scheduler.createHotObservable([.next(210, 0), .next(225, 1), .completed(230)])
        let observer = scheduler.start { source.flatMapLatest { $0 == 0 ? first.asObservable() : second.asObservable() } }
        XCTAssertEqual(observer.events, [.next(220, "a1"), .next(235, "b1"), .next(245, "b2"), .completed(255)])
        XCTAssertEqual(first.subscriptions, [Subscription(210, 225)])
        XCTAssertEqual(second.subscriptions, [Subscription(225, 255)])
    }

    func testConcat() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let second = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let observer = scheduler.start { first.concat(second) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(225, 2), .completed(230)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 230)])
    }

    func testConcatOfManySynchronousSourcesDoesNotRecurse() {
        var count = 0
        var completed = false
        _ = Observable.concat((0..<20_000).map { Observable.just($0) })
            .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        XCTAssertEqual(count, 20_000)
        XCTAssertTrue(completed)
    }

    func testConcatStopsOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError())])
        let second = scheduler.createColdObservable([.next(5, 2)])
        let observer = scheduler.start { Observable.concat([first.asObservable(), second.asObservable()]) }
        XCTAssertEqual(observer.events, [.error(210, TestError())])
        XCTAssertEqual(second.subscriptions, [])
    }

    /// At most two inner sequences at a time; the third is subscribed when the first
    /// completes, and the whole completes after the source and every inner.
    func testMergeMaxConcurrentQueuesTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(15, 2), .next(40, 3), .completed(50)])
        let c = scheduler.createColdObservable([.next(5, 4), .completed(10)])
        let source = scheduler.createHotObservable([
            .next(210, a.asObservable()), .next(212, b.asObservable()), .next(214, c.asObservable()), .completed(215),
        ])
        let observer = scheduler.start { source.merge(maxConcurrent: 2) }
        XCTAssertEqual(observer.events, [.next(220, 1), .next(227, 2), .next(235, 4), .next(252, 3), .completed(262)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(212, 262)])
        XCTAssertEqual(c.subscriptions, [Subscription(230, 240)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 215)])
    }

    func testMergeMaxConcurrentEndsOnAnInnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
        let waiting = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let source = scheduler.createHotObservable([.next(210, failing.asObservable()), .next(211, waiting.asObservable())])
        let observer = scheduler.start { source.merge(maxConcurrent: 1) }
        XCTAssertEqual(observer.events, [.next(215, 1), .error(220, TestError())])
        XCTAssertEqual(waiting.subscriptions, [], "never started")
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    /// Synchronous inner sequences one at a time: started in a loop, so 100,000 of them do
    /// not overflow the stack, and they arrive in order.
    func testMergeMaxConcurrentOneOverManySynchronousSourcesIsConcat() {
        var values: [Int] = []
        var completed = false
        _ = Observable.from((0..<100_000).map { Observable.just($0) }).merge(maxConcurrent: 1)
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(values, Array(0..<100_000))
        XCTAssertTrue(completed)
    }

    /// RxSwift's `catch(sequence:)`: each source in turn while they fail; the first that
    /// completes ends it; when all fail, the last error.
    func testCatchSequenceMovesOnErrorUntilOneCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let second = scheduler.createColdObservable([.next(10, 2), .completed(30)])
        let third = scheduler.createColdObservable([.next(10, 3), .completed(40)])
        let observer = scheduler.start {
            Observable.catch(sequence: [first.asObservable(), second.asObservable(), third.asObservable()])
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .completed(250)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])
        XCTAssertEqual(third.subscriptions, [])
    }

    func testCatchSequenceEndsWithTheLastErrorAndAnEmptyOneCompletes() {
        struct Second: Error, Equatable {}
        let failing = Observable.catch(sequence: [Observable<Int>.error(TestError()), .error(Second())])
        var events: [Event<Int>] = []
        _ = failing.subscribe { events.append($0) }
        XCTAssertEqual(events.count, 1)
        XCTAssertTrue(events.first?.error is Second, "\(events)")
        var completed = false
        _ = Observable<Int>.catch(sequence: []).subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
    }

    /// The sequence is read lazily: an endless one works, as `retry` needs.
    func testCatchSequenceReadsItsSourcesLazily() {
        var attempts = 0
        let flaky = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 3 {
                observer.on(.error(TestError()))
            } else {
                observer.on(.next(attempts))
                observer.on(.completed)
            }
            return Disposables.create()
        }
        var values: [Int] = []
        _ = Observable.catch(sequence: repeatElement(flaky, count: Int.max)).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [3])
        XCTAssertEqual(attempts, 3)
    }

    func testAmbPicksTheFirstToSendAnything() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createHotObservable([.next(250, 1), .completed(300)])
        let fast = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(280)])
        let observer = scheduler.start { slow.amb(fast) }
        XCTAssertEqual(observer.events, [.next(220, 2), .next(260, 3), .completed(280)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(fast.subscriptions, [Subscription(200, 280)])

        let again = TestScheduler(initialClock: 0)
        let sources = [
            again.createHotObservable([.next(240, "b")]).asObservable(),
            again.createHotObservable([.completed(230, String.self)]).asObservable(),
            again.createHotObservable([.next(210, "a")]).asObservable(),
        ]
        XCTAssertEqual(again.start { Observable.amb(sources) }.events, [.next(210, "a")])
    }
}
