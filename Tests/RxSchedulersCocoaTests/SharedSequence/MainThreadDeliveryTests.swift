import Foundation
import RxSchedulers
import RxSchedulersCocoa
import XCTest

/// Drivers and signals on the real main scheduler (`SharingScheduler` not mocked).
final class MainThreadDeliveryTests: SharedSequenceTestCase {
    override class var mocksTheSharingScheduler: Bool { false }

    /// On the real main scheduler: a source on a background thread is delivered on the main thread.
    func testADriverDeliversOnTheMainThread() {
        let subject = PublishSubject<Int>()
        let driver = subject.asDriver(onErrorJustReturn: -1)
        let received = Locked<[(value: Int, onMain: Bool)]>([])
        let subscription = driver.drive(onNext: { value in received.withLock { $0.append((value, Thread.isMainThread)) } })
        let producer = Thread {
            for value in 0..<100 { subject.onNext(value) }
            subject.onError(TestError())
        }
        producer.start()
        XCTAssertTrue(pumpMainLoop { received.withLock { $0.count } == 101 }, "every element and the fallback arrive")
        let values = received.withLock { $0 }
        XCTAssertEqual(values.map(\.value), Array(0..<100) + [-1])
        XCTAssertTrue(values.allSatisfy(\.onMain), "every element on the main thread")
        subscription.dispose()
    }

    /// `emit`, unlike `drive`, may be called off the main thread (a signal replays nothing).
    func testEmitMayBeCalledOffTheMainThread() {
        let subject = PublishSubject<Int>()
        let signal = subject.asSignal(onErrorJustReturn: 0)
        let received = Locked<[Int]>([])
        let subscribed = DispatchSemaphore(value: 0)
        let subscription = Locked<Disposable?>(nil)
        Thread {
            subscription.withLock { $0 = signal.emit(onNext: { value in received.withLock { $0.append(value) } }) }
            subscribed.signal()
        }.start()
        XCTAssertEqual(subscribed.wait(timeout: .now() + 10), .success)
        subject.onNext(1)
        XCTAssertTrue(pumpMainLoop { received.withLock { $0 } == [1] })
        subscription.withLock { $0?.dispose() }
    }
}
