import Foundation
import RxSchedulers
import XCTest

final class ResourcesTests: RxTestCase {
    func testTotalCountsLiveObjectsAndReturnsToBaseline() {
        let baseline = Resources.total
        var subscription: Disposable?
        do {
            let subject = PublishSubject<Int>()
            subscription = subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in })
            XCTAssertGreaterThan(Resources.total, baseline, "a live subscription holds counted objects")
            subject.onNext(1)
        }
        subscription?.dispose()
        subscription = nil
        XCTAssertEqual(Resources.total, baseline)
    }

    func testLeakedSubscriptionIsVisible() {
        let baseline = Resources.total
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in })
        XCTAssertGreaterThan(Resources.total, baseline, "an undisposed subscription shows as live objects")
        subscription.dispose()
    }

    func testAsynchronousPipelinesReleaseEverything() {
        let baseline = Resources.total
        let done = DispatchSemaphore(value: 0)
        do {
            let serial = SerialDispatchQueueScheduler(internalSerialQueueName: "resources")
            let concurrent = ConcurrentDispatchQueueScheduler(qos: .default)
            _ = Observable<Int>.range(start: 0, count: 1_000)
                .subscribe(on: concurrent)
                .flatMap { Observable.just($0).observe(on: concurrent) }
                .observe(on: serial)
                .share(replay: 1)
                .subscribe(onCompleted: { done.signal() })
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let deadline = Date().addingTimeInterval(5)
        while Resources.total != baseline && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(Resources.total, baseline)
    }
}

final class SerialQueueObservableCountTests: RxTestCase {
    func testObservablesOnASerialDispatchQueueAreCountedWhileTheyLive() {
        let before = Resources.numberOfSerialDispatchQueueObservables
        var observables: [Observable<Int>]? = [
            Observable.just(1).observe(on: SerialDispatchQueueScheduler(qos: .default)),
            Observable.just(1).observe(on: SerialDispatchQueueScheduler(qos: .default), strategy: .reference),
            Observable.just(1).observe(on: SerialDispatchQueueScheduler(qos: .default), strategy: .referenceGeneric),
            Observable.just(1).observe(on: ConcurrentDispatchQueueScheduler(qos: .default)),
        ]
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 2, "generic observe(on:) and other schedulers are not counted")
        XCTAssertEqual(observables?.count, 4)
        observables = nil
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before)
    }
}
