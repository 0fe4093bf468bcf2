import RxSchedulers
import RxSchedulersRelay
import RxSchedulersTesting
import XCTest

final class RelayTests: XCTestCase {
    func testAPublishRelaySendsToItsCurrentSubscribers() {
        let relay = PublishRelay<Int>()
        relay.accept(0)
        var received: [Int] = []
        let subscription = relay.subscribe(onNext: { received.append($0) })
        relay.accept(1)
        subscription.dispose()
        relay.accept(2)
        XCTAssertEqual(received, [1])
    }

    func testABehaviorRelayHoldsAValue() {
        let relay = BehaviorRelay(value: "a")
        var received: [String] = []
        _ = relay.subscribe(onNext: { received.append($0) })
        relay.accept("b")
        XCTAssertEqual(relay.value, "b")
        XCTAssertEqual(received, ["a", "b"])
    }

    func testAReplayRelayReplaysItsBuffer() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        [1, 2, 3].forEach(relay.accept)
        var received: [Int] = []
        _ = relay.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [2, 3])
        let unbounded = ReplayRelay<Int>.createUnbound()
        [1, 2, 3].forEach(unbounded.accept)
        var all: [Int] = []
        _ = unbounded.subscribe(onNext: { all.append($0) })
        XCTAssertEqual(all, [1, 2, 3])
    }

    func testBindToRelaysIgnoresCompletion() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        var published: [Int] = []
        _ = publish.subscribe(onNext: { published.append($0) })
        _ = Observable.of(1, 2).bind(to: publish)
        _ = Observable.of(3).bind(to: behavior)
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(behavior.value, 3)
        var completed = false
        _ = publish.subscribe(onCompleted: { completed = true })
        _ = Observable<Int>.empty().bind(to: publish)
        XCTAssertFalse(completed, "a relay never completes")
    }

    func testARelayAsAnInfallible() {
        let relay = BehaviorRelay(value: 1)
        var received: [Int] = []
        _ = relay.asInfallible().map { $0 * 2 }.subscribe(onNext: { received.append($0) })
        relay.accept(2)
        XCTAssertEqual(received, [2, 4])
    }
}
