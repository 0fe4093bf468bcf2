import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

/// Binder and the `rx` namespace.
final class BinderTests: RxTestCase {
    func testABinderSetsItsTargetOnItsScheduler() {
        final class Label { var text = "" }
        let label = Label()
        let scheduler = TestScheduler(initialClock: 0)
        let binder = Binder(label, scheduler: scheduler) { $0.text = $1 }
        scheduler.scheduleAt(210) { binder.onNext("hello") }
        scheduler.start()
        XCTAssertEqual(label.text, "hello")
    }

    func testABinderHoldsItsTargetWeaklyAndIgnoresCompletion() {
        final class Target { var calls = 0 }
        var target: Target? = Target()
        weak var weakTarget: Target?
        weakTarget = target
        let scheduler = TestScheduler(initialClock: 0)
        let binder = Binder<Int>(target!, scheduler: scheduler) { target, _ in target.calls += 1 }
        target = nil
        XCTAssertNil(weakTarget)
        binder.onNext(1)
        binder.onCompleted()
        scheduler.start()
    }

    func testTheDefaultSchedulerIsTheMainQueue() {
        let target = NSObject()
        let ran = Locked(false)
        let binder = Binder<Int>(target) { _, _ in
            XCTAssertTrue(Thread.isMainThread)
            ran.withValue { $0 = true }
        }
        DispatchQueue.global().async { binder.onNext(1) }
        XCTAssertTrue(pumpMainLoop(timeout: 30) { ran.current })
    }

    func testRxOfAnObjectBindsItsWritableProperties() {
        final class Model: ReactiveCompatible { var title = "" }
        let model = Model()
        _ = Observable.just("set").subscribe(model.rx.title)
        XCTAssertTrue(pumpMainLoop(timeout: 30) { model.title == "set" })
        let object = NSObject()
        XCTAssertTrue(object.rx.base === object, "every NSObject has an rx namespace")
    }
}
