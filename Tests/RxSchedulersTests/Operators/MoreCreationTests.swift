import RxSchedulers
import RxSchedulersTesting
import XCTest

/// generate, repeatElement, using, and the async/await bridging.
final class MoreCreationTests: RxTestCase {
    func testGenerateIteratesWhileTheConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start { Observable.generate(initialState: 1, condition: { $0 < 20 }, scheduler: scheduler, iterate: { $0 * 3 }) }
        XCTAssertEqual(observer.events, [.next(201, 1), .next(202, 3), .next(203, 9), .completed(204)], "one step per scheduled action")
        var values: [Int] = []
        _ = Observable.generate(initialState: 0, condition: { $0 < 100_000 }, iterate: { $0 + 1 }).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.count, 100_000, "the trampoline runs the steps as a loop")
    }

    func testGenerateFailsWithTheErrorOfItsClosures() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { value -> Int in
                if value == 1 { throw TestError() }
                return value + 1
            })
        }
        XCTAssertEqual(observer.events, [.next(201, 0), .next(202, 1), .error(203, TestError())])
    }

    func testRepeatElementRepeatsUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start(disposed: 204) { Observable.repeatElement(7, scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(201, 7), .next(202, 7), .next(203, 7)])
        var counts: [Int] = []
        _ = Observable.repeatElement("x").take(5).toArray().subscribe(onSuccess: { counts.append($0.count) })
        XCTAssertEqual(counts, [5], "on the trampoline the repetition is a loop that take(5) stops")
    }

    func testUsingDisposesTheResourceWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var made = 0
        var resource: BooleanDisposable?
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let observer = scheduler.start {
            Observable.using({ () -> BooleanDisposable in
                made += 1
                resource = BooleanDisposable()
                return resource!
            }, observableFactory: { _ in xs.asObservable() })
        }
        XCTAssertEqual(observer.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(made, 1)
        XCTAssertEqual(resource?.isDisposed, true)
    }

    func testUsingWithAFailingFactory() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: BooleanDisposable?
        let observer = scheduler.start {
            Observable<Int>.using({ () -> BooleanDisposable in
                resource = BooleanDisposable()
                return resource!
            }, observableFactory: { _ in throw TestError() })
        }
        XCTAssertEqual(observer.events, [.error(200, TestError())])
        XCTAssertEqual(resource?.isDisposed, true, "a resource already made is disposed")
    }

    func testValuesIteratesTheElementsAndThrowsTheError() async {
        var collected: [Int] = []
        do {
            for try await value in Observable.of(1, 2).concat(Observable<Int>.error(TestError(5))).values { collected.append(value) }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(5))
        }
        XCTAssertEqual(collected, [1, 2])
    }

    func testLeavingTheLoopDisposesTheSubscription() async throws {
        let disposed = expectation(description: "disposed")
        let subject = PublishSubject<Int>()
        let feeder = Task {
            var value = 0
            while !Task.isCancelled {
                subject.onNext(value)
                value += 1
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        for try await value in subject.do(onDispose: { disposed.fulfill() }).values where value >= 2 { break }
        await fulfillment(of: [disposed], timeout: 30)
        feeder.cancel()
    }

    func testAnAsyncSequenceAsAnObservable() {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let done = expectation(description: "completed")
        let received = Locked<[Int]>([])
        let subscription = stream.asObservable().subscribe(onNext: { value in received.withValue { $0.append(value) } }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 30)
        XCTAssertEqual(received.current, [1, 2, 3])
        subscription.dispose()
    }
}
