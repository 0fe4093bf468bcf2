import RxSchedulers
import RxSchedulersTesting
import XCTest

final class AsyncSubjectTests: RxTestCase {
    func testSendsTheLastElementAtCompletionToEveryoneAndLateObservers() {
        let subject = AsyncSubject<Int>()
        var early: [Event<Int>] = []
        _ = subject.subscribe { early.append($0) }
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(early, [], "nothing before completion")
        subject.onCompleted()
        subject.onNext(3)
        XCTAssertEqual(early, [.next(2), .completed])
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        XCTAssertEqual(late, [.next(2), .completed])
        XCTAssertFalse(subject.hasObservers)
    }

    func testCompletionWithoutAnElementAndErrors() {
        let empty = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        _ = empty.subscribe { events.append($0) }
        empty.onCompleted()
        XCTAssertEqual(events, [.completed])

        let failing = AsyncSubject<Int>()
        var failures: [Event<Int>] = []
        _ = failing.subscribe { failures.append($0) }
        failing.onNext(1)
        failing.onError(TestError())
        _ = failing.subscribe { failures.append($0) }
        XCTAssertEqual(failures, [.error(TestError()), .error(TestError())])
    }

    func testAnObserverMaySubscribeToTheSubjectFromItsHandler() {
        // Delivery and the late observer's replay run outside the subject's lock.
        let subject = AsyncSubject<Int>()
        var nested: [Event<Int>] = []
        _ = subject.subscribe(onCompleted: { _ = subject.subscribe { nested.append($0) } })
        subject.onNext(4)
        subject.onCompleted()
        XCTAssertEqual(nested, [.next(4), .completed])
    }

    func testDisposingASubscriptionRemovesTheObserver() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(events, [])
    }
}
