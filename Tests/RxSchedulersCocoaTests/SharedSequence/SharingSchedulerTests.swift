import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersTesting
import XCTest

final class SharingSchedulerTests: SharedSequenceTestCase {
    override class var mocksTheSharingScheduler: Bool { false }

    func testTheDefaultIsAMainScheduler() {
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        XCTAssertTrue(DriverSharingStrategy.scheduler is MainScheduler)
        XCTAssertTrue(SignalSharingStrategy.scheduler is MainScheduler)
    }

    func testAMockHoldsWhileItsActionRunsAndIsUndoneAfterwards() {
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue((SharingScheduler.make() as AnyObject) === scheduler)
            XCTAssertTrue((DriverSharingStrategy.scheduler as AnyObject) === scheduler)
            let inner = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: inner) { XCTAssertTrue((SharingScheduler.make() as AnyObject) === inner) }
            XCTAssertTrue((SharingScheduler.make() as AnyObject) === scheduler, "a nested mock puts the outer one back")
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testAMockIsUndoneWhenItsActionThrows() {
        XCTAssertThrowsError(try SharingScheduler.mock(scheduler: scheduler) { throw TestError() })
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    func testMakeSchedulerIsCalledForEachSharedSequenceBuilt() {
        var made = 0
        SharingScheduler.mock(makeScheduler: {
            made += 1
            return self.scheduler
        }) {
            _ = Observable.just(1).asDriver(onErrorJustReturn: 0)
            _ = Observable.just(1).asSignal(onErrorJustReturn: 0).throttle(.seconds(1))
        }
        XCTAssertEqual(made, 3, "asDriver, asSignal and throttle each ask for the scheduler once")
    }
}
