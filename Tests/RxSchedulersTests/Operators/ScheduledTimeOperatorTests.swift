import RxSchedulers
import RxSchedulersTesting
import XCTest

/// The operators whose timing comes from a scheduler: delay, timeout, take(for:),
/// skip(for:) and sample, in virtual time (subscribed at 200, disposed at 1000).
final class ScheduledTimeOperatorTests: RxTestCase {
    // MARK: delay

    func testDelayShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
        let observer = scheduler.start { source.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(240, 1), .next(250, 2), .completed(280)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    }

    func testDelayKeepsTheSpacingOfABurstAndOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .next(10, 2), .next(15, 3), .completed(40)])
        let observer = scheduler.start { source.delay(.seconds(100), scheduler: scheduler) }
        // One event per scheduled action, as RxSwift: the second of two simultaneous elements
        // is rescheduled for "now", which a TestScheduler simulating processing delay runs one tick later.
        XCTAssertEqual(observer.events, [.next(310, 1), .next(311, 2), .next(315, 3), .completed(340)])
    }

    func testDelaySendsAnErrorAtOnceAndDropsWhatWaits() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, TestError())])
        let observer = scheduler.start { source.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.error(220, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    func testDelayDisposedBeforeTheElementsAreDue() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(290, 2)])
        let observer = scheduler.start(disposed: 300) { source.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(260, 1)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    /// On a real serial queue: every element arrives, in order, no sooner than the delay.
    func testDelayOnADispatchQueueKeepsOrderAndTheDelay() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let done = expectation(description: "completed")
        let start = Date()
        var received: [Int] = []
        var elapsed: TimeInterval = 0
        let subscription = Observable.range(start: 0, count: 100).delay(.milliseconds(50), scheduler: scheduler).subscribe(
            onNext: { received.append($0) },
            onCompleted: {
                elapsed = Date().timeIntervalSince(start)
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        subscription.dispose()
        XCTAssertEqual(received, Array(0..<100))
        XCTAssertGreaterThanOrEqual(elapsed, 0.05)
    }

    // MARK: timeout

    func testTimeoutFailsWhenTheNextElementIsLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(280, 3), .completed(300)])
        let observer = scheduler.start { source.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .error(260, RxError.timeout)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 260)])
    }

    func testTimeoutDoesNothingWhileElementsAreInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(220, 1), .next(245, 2), .completed(270)])
        let observer = scheduler.start { source.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(220, 1), .next(245, 2), .completed(270)])
    }

    func testTimeoutCountsTheFirstElementFromSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(240, 1)])
        let observer = scheduler.start { source.timeout(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.error(230, RxError.timeout)])
    }

    func testTimeoutSwitchesToTheOtherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(280, 3), .completed(300)])
        let other = scheduler.createColdObservable([.next(10, 9), .completed(20)])
        let observer = scheduler.start { source.timeout(.seconds(30), other: other, scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .next(270, 9), .completed(280)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(other.subscriptions, [Subscription(260, 280)])
    }

    func testTimeoutDisposesTheOtherSequenceWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let other = scheduler.createColdObservable([.next(100, 9)])
        let observer = scheduler.start(disposed: 400) { source.timeout(.seconds(50), other: other, scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(350, 9)])
        XCTAssertEqual(other.subscriptions, [Subscription(250, 400)])
    }

    // MARK: take(for:) and skip(for:)

    func testTakeForCompletesWhenTheDurationEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(300)])
        let observer = scheduler.start { source.take(for: .seconds(45), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(245)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 245)])
    }

    func testTakeForPassesAnEarlierEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let observer = scheduler.start { source.take(for: .seconds(45), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
    }

    func testSkipForDropsTheElementsOfTheDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(229, 2), .next(231, 3), .next(250, 4), .completed(300)])
        let observer = scheduler.start { source.skip(for: .seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(231, 3), .next(250, 4), .completed(300)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    }

    func testSkipForPassesStopEventsAtAnyTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(215, TestError())])
        let observer = scheduler.start { source.skip(for: .seconds(30), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.error(215, TestError())])
    }

    @available(*, deprecated)
    func testTheDeprecatedTimeSpellings() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        XCTAssertEqual(scheduler.start { source.take(.seconds(20), scheduler: scheduler) }.events, [.next(210, 1), .completed(220)])
        let again = TestScheduler(initialClock: 0)
        let second = again.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        XCTAssertEqual(again.start { second.skip(.seconds(20), scheduler: again) }.events, [.next(240, 2), .completed(300)])
    }

    // MARK: sample

    func testSampleSendsTheLatestElementAtEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .next(320, 4), .completed(400)])
        let sampler = scheduler.createHotObservable([
            .next(230, "a"), .next(240, "b"), .next(300, "c"), .next(350, "d"), .next(420, "e"), .completed(500),
        ])
        let observer = scheduler.start { source.sample(sampler) }
        XCTAssertEqual(observer.events, [.next(230, 2), .next(300, 3), .next(350, 4), .completed(420)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(sampler.subscriptions, [Subscription(200, 420)])
    }

    func testSampleSendsTheDefaultWhenNothingCame() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let sampler = scheduler.createHotObservable([.next(230, ()), .next(240, ()), .next(420, ())])
        let observer = scheduler.start { source.sample(sampler, defaultValue: 0) }
        XCTAssertEqual(observer.events, [.next(230, 1), .next(240, 0), .next(420, 0), .completed(420)])
    }

    func testTheSamplersCompletionSamplesButOnlyEndsWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let sampler = scheduler.createHotObservable([.completed(250, Int.self)])
        let observer = scheduler.start { source.sample(sampler) }
        XCTAssertEqual(observer.events, [.next(250, 1)], "2 comes after the last sample: never sent; no completion")
        XCTAssertEqual(source.subscriptions, [Subscription(200, 1000)])
    }

    func testSampleFailsWhenEitherFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1)])
        let sampler = scheduler.createHotObservable([Recorded.error(230, TestError(), Int.self)])
        let observer = scheduler.start { source.sample(sampler) }
        XCTAssertEqual(observer.events, [.error(230, TestError())])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }
}

/// buffer(timeSpan:count:scheduler:): arrays by count or by time.
final class BufferTests: RxTestCase {
    func testBufferSendsByCountOrByTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(290, 5), .completed(320),
        ])
        let observer = scheduler.start { source.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        // 230: three elements; the timer restarts and fires at 280 with [4]; at 320 the rest.
        XCTAssertEqual(observer.events.map(\.time), [230, 280, 320, 320])
        XCTAssertEqual(observer.events.compactMap(\.value.element), [[1, 2, 3], [4], [5]])
        XCTAssertEqual(observer.events.last?.value.isStopEvent, true)
        XCTAssertEqual(source.subscriptions, [Subscription(200, 320)])
    }

    func testAnEmptyWindowSendsAnEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(260, 1), .completed(270)])
        let observer = scheduler.start { source.buffer(timeSpan: .seconds(25), count: 10, scheduler: scheduler) }
        XCTAssertEqual(observer.events.map(\.time), [225, 250, 270, 270])
        XCTAssertEqual(observer.events.compactMap(\.value.element), [[], [], [1]])
    }

    func testAnErrorDropsTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let observer = scheduler.start { source.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(observer.events.count, 1)
        XCTAssertEqual(observer.events.first?.time, 220)
        XCTAssertNotNil(observer.events.first?.value.error)
    }
}

/// window(timeSpan:count:scheduler:): windows by count or by time, and their lifetime.
final class WindowTests: RxTestCase {
    /// Each window's elements, collected by subscribing to it as it is sent, with its close time.
    private func windows(
        _ scheduler: TestScheduler, _ source: TestableObservable<Int>, timeSpan: Int, count: Int, disposed: TestTime = 1000
    ) -> (contents: [[Int]], closed: [TestTime], outer: [Recorded<Event<Int>>]) {
        var contents: [[Int]] = []
        var closed: [TestTime] = []
        let outer = scheduler.start(disposed: disposed) {
            source.window(timeSpan: .seconds(timeSpan), count: count, scheduler: scheduler).map { window -> Int in
                let index = contents.count
                contents.append([])
                closed.append(-1)
                _ = window.subscribe(onNext: { contents[index].append($0) }, onCompleted: { closed[index] = scheduler.clock })
                return index
            }
        }
        return (contents, closed, outer.events)
    }

    func testWindowsCloseByCountOrByTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(290, 5), .completed(320),
        ])
        let (contents, closed, outer) = windows(scheduler, source, timeSpan: 50, count: 3)
        XCTAssertEqual(contents, [[1, 2, 3], [4], [5]])
        XCTAssertEqual(closed, [230, 280, 320])
        XCTAssertEqual(outer, [.next(200, 0), .next(230, 1), .next(280, 2), .completed(320)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 320)])
    }

    func testAnErrorEndsTheOpenWindowAndTheOuterSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let (contents, _, outer) = windows(scheduler, source, timeSpan: 50, count: 3)
        XCTAssertEqual(contents, [[1]])
        XCTAssertEqual(outer, [.next(200, 0), .error(220, TestError())])
    }

    /// Disposing the outer subscription keeps the source while a window is subscribed.
    func testASubscribedWindowKeepsTheSourceAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(400, 2), .next(500, 3)])
        let (contents, _, _) = windows(scheduler, source, timeSpan: 1_000, count: 10, disposed: 300)
        XCTAssertEqual(contents, [[1, 2, 3]], "the window's own subscription still receives after the outer one ended")
        XCTAssertEqual(source.subscriptions, [Subscription(200, 1200)], "ended when the window closed (at 200 + 1,000) and its subscription with it")
    }

    /// …and ends it when the last window subscription ends after the outer one.
    func testTheSourceEndsWithTheLastReference() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
        var windowSubscription: Disposable?
        scheduler.scheduleAt(350) { windowSubscription?.dispose() }
        let outer = scheduler.start(disposed: 300) {
            source.window(timeSpan: .seconds(1_000), count: 10, scheduler: scheduler).do(onNext: { window in
                windowSubscription = window.subscribe()
            })
        }
        XCTAssertEqual(outer.events.count, 1)
        XCTAssertEqual(source.subscriptions, [Subscription(200, 350)])
    }
}
