import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersTesting
import XCTest

final class SignalTests: SharedSequenceTestCase {
    func testAnErrorBecomesTheFallbackElementThenCompletion() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
        let signal = source.asSignal(onErrorJustReturn: -1)
        let observer = scheduler.start { signal }
        XCTAssertEqual(observer.events, [.next(211, 1), .next(231, -1), .completed(231)])
    }

    func testAnErrorSwitchesToTheFallbackSignalOrTheRecovery() {
        let source = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, TestError())])
        let withFallback = source.asSignal(onErrorSignalWith: Signal.just(7))
        let recovered = source.asSignal(onErrorRecover: { _ in Signal.just(8) })
        let one = scheduler.createObserver(Int.self)
        let two = scheduler.createObserver(Int.self)
        subscribe(withFallback.asObservable(), one, at: 200, until: 1000)
        subscribe(recovered.asObservable(), two, at: 200, until: 1000)
        scheduler.start()
        XCTAssertEqual(one.events, [.next(222, 7), .completed(222)])
        XCTAssertEqual(two.events, [.next(222, 8), .completed(222)])
    }

    /// Observers share one subscription; a late one gets only what comes after it.
    func testObserversShareOneSubscriptionAndNothingIsReplayed() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .next(510, 4)])
        let signal = source.asSignal(onErrorJustReturn: 0)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let again = scheduler.createObserver(Int.self)
        subscribe(signal.asObservable(), first, at: 200, until: 300)
        subscribe(signal.asObservable(), late, at: 250, until: 400)
        subscribe(signal.asObservable(), again, at: 500, until: 600)
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .next(261, 3)])
        XCTAssertEqual(late.events, [.next(261, 3)], "nothing replayed to a late observer")
        XCTAssertEqual(again.events, [.next(511, 4)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 400), Subscription(500, 600)])
    }

    func testEmitDeliversToObserversAndClosures() {
        final class Screen { var taps: [Int] = [] }
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let signal = source.asSignal(onErrorJustReturn: 0)
        let one = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        let screen = Screen()
        var closures: [String] = []
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(signal.emit(to: one))
            subscriptions.append(signal.emit(to: optional))
            subscriptions.append(signal.emit(with: screen, onNext: { screen, value in screen.taps.append(value) }))
            subscriptions.append(
                signal.emit(
                    onNext: { closures.append("next \($0)") }, onCompleted: { closures.append("completed") },
                    onDisposed: { closures.append("disposed") }))
            subscriptions.append(signal.emit())
        }
        scheduler.start()
        XCTAssertEqual(one.events, [.next(211, 1), .next(221, 2), .completed(231)])
        XCTAssertEqual(optional.events, [.next(211, Optional(1)), .next(221, Optional(2)), .completed(231)])
        XCTAssertEqual(screen.taps, [1, 2])
        XCTAssertEqual(closures, ["next 1", "next 2", "completed", "disposed"])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)], "five emits, one subscription")
        subscriptions.forEach { $0.dispose() }
    }
}
