import Foundation
import RxSchedulers
import RxSchedulersBlocking
import XCTest

final class BlockingObservableTests: XCTestCase {
    struct Failure: Error, Equatable {}

    func testOperatorsOfACompletedSequence() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertEqual(try Observable.just(4).toBlocking().single(), 4)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
    }

    func testSingleWantsExactlyOne() {
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) { XCTAssertTrue(($0 as? RxError).map { "\($0)" } == "\(RxError.moreThanOneElement)") }
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { XCTAssertTrue(($0 as? RxError).map { "\($0)" } == "\(RxError.noElements)") }
    }

    /// As RxBlocking: the subscription is made on the trampoline, so a source that emits
    /// through it stops after the element that settles `single` (its predicate sees no more).
    func testSingleStopsASourceOnTheTrampolineAtTheElementThatSettlesIt() throws {
        var seen: [Int] = []
        XCTAssertThrowsError(try Observable.of(42, 43, 44, 45).toBlocking().single { seen.append($0); return $0 >= 43 })
        XCTAssertEqual(seen, [42, 43, 44])
    }

    func testFirstDisposesTheSubscriptionAfterTheFirstElement() throws {
        var disposed = false
        let endless = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { disposed = true }
        }
        XCTAssertEqual(try endless.toBlocking().first(), 1)
        XCTAssertTrue(disposed)
    }

    func testErrorsAreThrownAndMaterialized() {
        let failing = Observable.of(1).concat(Observable<Int>.error(Failure()))
        XCTAssertThrowsError(try failing.toBlocking().toArray()) { XCTAssertEqual($0 as? Failure, Failure()) }
        guard case .failed(let elements, let error) = failing.toBlocking().materialize() else { return XCTFail("completed") }
        XCTAssertEqual(elements, [1])
        XCTAssertEqual(error as? Failure, Failure())
    }

    func testATimeoutFailsASequenceThatDoesNotEnd() {
        let started = Date()
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).toArray()) {
            XCTAssertEqual("\($0)", "\(RxError.timeout)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }

    func testOnTheMainThreadTheMainQueueKeepsRunning() throws {
        XCTAssertTrue(Thread.isMainThread)
        let elements = try Observable.of(1, 2).observe(on: MainScheduler.asyncInstance).toBlocking(timeout: 30).toArray()
        XCTAssertEqual(elements, [1, 2])
    }

    func testOnABackgroundThreadItWaitsForAnotherThread() throws {
        let result = Locked<[Int]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.set(try? Observable.of(1, 2).observe(on: ConcurrentDispatchQueueScheduler(qos: .default)).toBlocking(timeout: 30).toArray())
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(result.get(), [1, 2])
    }
}

private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
}
