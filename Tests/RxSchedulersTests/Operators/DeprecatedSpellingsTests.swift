import RxSchedulers
import RxSchedulersTesting
import XCTest

/// RxSwift 5 spellings compile and behave as the new names (the deprecation warnings they
/// raise here are the point: RxSwift raises the same ones).
final class DeprecatedSpellingsTests: RxTestCase {
    @available(*, deprecated)
    func testEachOldSpellingBehavesAsItsNewName() {
        func events(_ make: @escaping (TestableObservable<Int>) -> Observable<Int>) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .error(230, TestError())])
            return scheduler.start { make(source) }.events
        }
        XCTAssertEqual(events { $0.catchErrorJustReturn(9) }, events { $0.catchAndReturn(9) })
        XCTAssertEqual(events { $0.catchError { _ in .just(7) } }, events { $0.catch { _ in .just(7) } })
        XCTAssertEqual(events { $0.takeWhile { $0 < 3 } }, events { $0.take(while: { $0 < 3 }) })
        XCTAssertEqual(events { $0.takeUntil(.inclusive, predicate: { $0 > 3 }) }, events { $0.take(until: { $0 > 3 }, behavior: .inclusive) })
        XCTAssertEqual(events { $0.takeUntil(Observable<Int>.never()) }, events { $0.take(until: Observable<Int>.never()) })
        XCTAssertEqual(events { _ in Observable.catchError([.error(TestError()), .just(3)]) }, [.next(200, 3), .completed(200)])

        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let observed = scheduler.start { source.subscribeOn(scheduler).observeOn(scheduler) }
        XCTAssertEqual(observed.events, [.next(212, 1), .completed(222)])
    }
}
