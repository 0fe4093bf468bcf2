import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersTesting
import XCTest

/// Each operator keeps the three guarantees: its result is shared (one upstream
/// subscription for many observers), and the time operators run on the sharing scheduler.
final class SharedSequenceOperatorsTests: SharedSequenceTestCase {
    /// Subscribes two observers at 200 and returns what the first got and how many times
    /// the source was subscribed.
    private func sharedRun<Element: Equatable>(
        _ events: [Recorded<Event<Int>>], _ build: (Driver<Int>) -> Driver<Element>
    ) -> (events: [Recorded<Event<Element>>], subscriptions: Int) {
        scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(events)
        var subscriptions = 0
        let one = scheduler.createObserver(Element.self)
        let two = scheduler.createObserver(Element.self)
        let driver = build(source.do(onSubscribe: { subscriptions += 1 }).asDriver(onErrorJustReturn: -1))
        subscribe(driver.asObservable(), one, at: 200, until: 1000)
        subscribe(driver.asObservable(), two, at: 200, until: 1000)
        scheduler.start()
        XCTAssertEqual(one.events, two.events)
        return (one.events, subscriptions)
    }

    private let numbers: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .completed(300)]

    func testTransformingOperators() {
        let mapped = sharedRun(numbers) { $0.map { $0 * 10 } }
        XCTAssertEqual(mapped.events, [.next(211, 10), .next(221, 20), .next(231, 20), .next(241, 30), .completed(301)])
        XCTAssertEqual(mapped.subscriptions, 1)
        let compact = sharedRun(numbers) { $0.compactMap { $0 == 2 ? nil : "\($0)" } }
        XCTAssertEqual(compact.events, [.next(211, "1"), .next(241, "3"), .completed(301)])
        let filtered = sharedRun(numbers) { $0.filter { $0 != 1 } }
        XCTAssertEqual(filtered.events, [.next(221, 2), .next(231, 2), .next(241, 3), .completed(301)])
        let scanned = sharedRun(numbers) { $0.scan(0) { $0 + $1 } }
        XCTAssertEqual(scanned.events, [.next(211, 1), .next(221, 3), .next(231, 5), .next(241, 8), .completed(301)], "one fold for both observers")
        let distinct = sharedRun(numbers) { $0.distinctUntilChanged() }
        XCTAssertEqual(distinct.events, [.next(211, 1), .next(221, 2), .next(241, 3), .completed(301)])
        let byKey = sharedRun(numbers) { $0.distinctUntilChanged { $0 / 2 } }
        XCTAssertEqual(byKey.events, [.next(211, 1), .next(221, 2), .completed(301)])
        // The comparer says "the same"; each element is compared with the last one delivered.
        let byComparer = sharedRun(numbers) { $0.distinctUntilChanged { abs($0 - $1) <= 1 } }
        XCTAssertEqual(byComparer.events, [.next(211, 1), .next(241, 3), .completed(301)])
        let keyAndComparer = sharedRun(numbers) { $0.distinctUntilChanged({ $0 * 2 }, comparer: { $0 == $1 }) }
        XCTAssertEqual(keyAndComparer.events, distinct.events)
        let started = sharedRun(numbers) { $0.startWith(0) }
        XCTAssertEqual(started.events, [.next(200, 0), .next(211, 1), .next(221, 2), .next(231, 2), .next(241, 3), .completed(301)])
        let skipped = sharedRun(numbers) { $0.skip(3) }
        XCTAssertEqual(skipped.events, [.next(241, 3), .completed(301)])
        var log: [String] = []
        let done = sharedRun(numbers) { $0.do(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }) }
        XCTAssertEqual(done.events.count, 5)
        XCTAssertEqual(log, ["next 1", "next 2", "next 2", "next 3", "completed"], "side effects once, however many observers")
    }

    func testTimeOperatorsRunOnTheSharingScheduler() {
        let throttled = sharedRun([.next(210, 1), .next(212, 2), .next(214, 3), .completed(400)]) { $0.throttle(.seconds(20)) }
        XCTAssertEqual(throttled.events, [.next(211, 1), .next(231, 3), .completed(401)])
        let first = sharedRun([.next(210, 1), .next(212, 2), .next(214, 3), .completed(400)]) { $0.throttle(.seconds(20), latest: false) }
        XCTAssertEqual(first.events, [.next(211, 1), .completed(401)])
        let debounced = sharedRun([.next(210, 1), .next(215, 2), .next(260, 3), .completed(400)]) { $0.debounce(.seconds(10)) }
        XCTAssertEqual(debounced.events, [.next(226, 2), .next(271, 3), .completed(401)])
        let delayed = sharedRun([.next(210, 1), .completed(300)]) { $0.delay(.seconds(50)) }
        XCTAssertEqual(delayed.events, [.next(261, 1), .completed(351)])
    }

    /// Inner drivers: a at +5, b at +12, completion at +20 after their subscription, each
    /// delivered one tick later. Outer elements arrive at 211 and 221.
    func testFlatteningOperators() {
        let outer: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(300)]
        let inner: (Int) -> Driver<String> = { value in
            self.scheduler.createColdObservable([.next(5, "\(value)a"), .next(12, "\(value)b"), .completed(20)]).asDriver(onErrorJustReturn: "")
        }
        let flat = sharedRun(outer) { $0.flatMap(inner) }
        XCTAssertEqual(flat.events, [.next(217, "1a"), .next(224, "1b"), .next(227, "2a"), .next(234, "2b"), .completed(301)])
        XCTAssertEqual(flat.subscriptions, 1)
        let latest = sharedRun(outer) { $0.flatMapLatest(inner) }
        XCTAssertEqual(latest.events, [.next(217, "1a"), .next(227, "2a"), .next(234, "2b"), .completed(301)], "1's inner is disposed when 2 arrives")
        let firstOnly = sharedRun(outer) { $0.flatMapFirst(inner) }
        XCTAssertEqual(firstOnly.events, [.next(217, "1a"), .next(224, "1b"), .completed(301)], "2 arrives while 1's inner runs")
        let switched = sharedRun(outer) { $0.map(inner).switchLatest() }
        XCTAssertEqual(switched.events, latest.events)
        let merged = sharedRun(outer) { $0.map(inner).merge() }
        XCTAssertEqual(merged.events, flat.events)
        let limited = sharedRun(outer) { $0.map(inner).merge(maxConcurrent: 1) }
        XCTAssertEqual(limited.events, [.next(217, "1a"), .next(224, "1b"), .next(238, "2a"), .next(245, "2b"), .completed(301)], "2's inner waits for 1's")
    }

    func testCombiningAndCreation() {
        let merged = Driver.merge(Driver.of(1, 2), Driver.just(3))
        XCTAssertEqual(scheduler.start { merged }.events, [.next(201, 1), .next(201, 3), .next(202, 2), .completed(203)])
        scheduler = TestScheduler(initialClock: 0)
        let concatenated = Driver.concat([Driver.of(1, 2), Driver.just(3)])
        XCTAssertEqual(scheduler.start { concatenated }.events, [.next(201, 1), .next(202, 2), .next(204, 3), .completed(204)])

        scheduler = TestScheduler(initialClock: 0)
        let created: [Driver<Int>] = [Driver.empty(), Driver.never(), Driver.from([4, 5]), Driver.from(Set([6])), Driver.from(optional: 7), Driver.from(optional: nil),
             Driver.deferred { Driver.just(8) }]
        let observers = created.map { _ in scheduler.createObserver(Int.self) }
        for (driver, observer) in zip(created, observers) { subscribe(driver.asObservable(), observer, at: 200, until: 1000) }
        scheduler.start()
        XCTAssertEqual(observers.map(\.events), [
            [.completed(201)], [], [.next(201, 4), .next(202, 5), .completed(203)], [.next(201, 6), .completed(202)],
            [.next(201, 7), .completed(202)], [.completed(201)], [.next(201, 8), .completed(201)],
        ])
    }

    func testIntervalAndTimerAreSharedAndTimedOnTheSharingScheduler() {
        let interval = Driver<Int>.interval(.seconds(100))
        let timer = Signal<Int>.timer(.seconds(50), period: .seconds(100))
        let one = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let ticks = scheduler.createObserver(Int.self)
        subscribe(interval.asObservable(), one, at: 200, until: 550)
        subscribe(interval.asObservable(), late, at: 350, until: 450)
        subscribe(timer.asObservable(), ticks, at: 200, until: 500)
        scheduler.start()
        XCTAssertEqual(one.events, [.next(300, 0), .next(400, 1), .next(500, 2)])
        XCTAssertEqual(late.events, [.next(350, 0), .next(400, 1)], "a driver's interval replays its latest tick")
        XCTAssertEqual(ticks.events, [.next(250, 0), .next(350, 1), .next(450, 2)])
    }

    func testCombiningDriversSharesTheResult() {
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let letters = scheduler.createHotObservable([.next(220, "a"), .completed(250)])
        var combinedSubscriptions = 0
        let left = numbers.asDriver(onErrorJustReturn: 0)
        let right = letters.asDriver(onErrorJustReturn: "")
        let combined = Driver.combineLatest(left, right) { "\($0)\($1)" }.do(onSubscribe: { combinedSubscriptions += 1 })
        let tuples = Driver.combineLatest(left, right).map { "\($0.0)\($0.1)" }
        let zipped = Driver.zip(left, right) { "\($0)\($1)" }
        let latest = left.withLatestFrom(right) { "\($0)\($1)" }
        let latestAlone = left.withLatestFrom(right)
        let collection = Driver.combineLatest([left, left.map { $0 * 10 }])
        let zippedCollection = Driver.zip([left, left]) { $0.reduce(0, +) }
        let observers = (0..<5).map { _ in scheduler.createObserver(String.self) }
        let arrays = scheduler.createObserver([Int].self)
        let sums = scheduler.createObserver(Int.self)
        for (sequence, observer) in zip([combined, tuples, zipped, latest, latestAlone], observers) {
            subscribe(sequence.asObservable(), observer, at: 200, until: 1000)
        }
        subscribe(combined.asObservable(), observers[0], at: 200, until: 1000)  // a second observer of the same driver
        subscribe(collection.asObservable(), arrays, at: 200, until: 1000)
        subscribe(zippedCollection.asObservable(), sums, at: 200, until: 1000)
        scheduler.start()
        XCTAssertEqual(combinedSubscriptions, 1, "two observers, one combined subscription")
        XCTAssertEqual(observers[1].events, [.next(221, "1a"), .next(231, "2a"), .completed(301)])
        XCTAssertEqual(observers[2].events, [.next(221, "1a"), .completed(301)])
        XCTAssertEqual(observers[3].events, [.next(231, "2a"), .completed(301)])
        XCTAssertEqual(observers[4].events, [.next(231, "a"), .completed(301)])
        XCTAssertEqual(arrays.events, [.next(211, [1, 10]), .next(231, [2, 10]), .next(231, [2, 20]), .completed(301)])
        XCTAssertEqual(sums.events, [.next(211, 2), .next(231, 4), .completed(301)])
    }
}
