import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersRelay
import RxSchedulersTesting
import XCTest

/// `bind` of observables and infallibles, and the relays as `drive` and `emit` targets.
final class BindTests: XCTestCase {
    func testBindToObserversAndOptionalObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let plain = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        _ = Observable.of(1, 2).bind(to: plain)
        _ = Observable.of(3).bind(to: optional)
        XCTAssertEqual(plain.events, [.next(0, 1), .next(0, 2), .completed(0)])
        XCTAssertEqual(optional.events, [.next(0, 3), .completed(0)])
    }

    func testBindToABinderFunctionAndOnNext() {
        var received: [Int] = []
        let subscription = Observable.of(1, 2).bind(to: { (source: Observable<Int>) in source.subscribe(onNext: { received.append($0) }) })
        _ = Observable.of(3).bind(onNext: { received.append($0) })
        final class Owner { var values: [Int] = [] }
        let owner = Owner()
        _ = Observable.of(4).bind(with: owner) { $0.values.append($1) }
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertEqual(owner.values, [4])
        subscription.dispose()
    }

    func testAnInfallibleBindsToRelays() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay<Int>(value: 0)
        var published: [Int] = []
        _ = publish.subscribe(onNext: { published.append($0) })
        _ = Infallible.of(1, 2).bind(to: publish)
        _ = Infallible.of(3).bind(to: behavior)
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(behavior.value, 3)
    }

    func testADriverDrivesRelaysAndASignalEmitsToThem() {
        XCTAssertTrue(Thread.isMainThread)
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        _ = Driver.just(5).drive(behavior)
        _ = Driver.just(6).drive(replay)
        XCTAssertTrue(pumpMainLoop { behavior.value == 5 })
        var replayed: [Int] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        XCTAssertTrue(pumpMainLoop { replayed == [6] })
        let publish = PublishRelay<Int>()
        var emitted: [Int] = []
        _ = publish.subscribe(onNext: { emitted.append($0) })
        _ = Signal.just(7).emit(to: publish)
        XCTAssertTrue(pumpMainLoop { emitted == [7] })
    }
}
