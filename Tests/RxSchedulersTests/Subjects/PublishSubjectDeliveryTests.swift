import Dispatch
import Foundation
import XCTest

@testable import RxSchedulers

/// `PublishSubject`'s delivery to its sole observer without a retain: an observer removed
/// while a delivery to it runs is parked until the delivery returns, then released; under
/// subscription churn from several threads each observer still receives a gapless run.
///
/// The parked list is read directly: a debug build keeps the observer's closure alive
/// across the call anyway (it copies it), so only the release build shows a premature
/// release as such (`subject.delivery` in `schedbench stress` checks that one).
final class PublishSubjectDeliveryTests: RxTestCase {
    /// Set by its `deinit`: whether the closure that captured it was released.
    private final class Canary {
        let released: Locked<Bool>
        init(_ released: Locked<Bool>) { self.released = released }
        deinit { released.withValue { $0 = true } }
    }

    private func parkedCount(_ subject: PublishSubject<Int>) -> Int {
        subject.lock.performLocked { subject.parked.count }
    }

    /// The sole observer disposing its own subscription inside a delivery: parked until
    /// the delivery returns, then released.
    func testAnObserverThatUnsubscribesItselfIsParkedUntilItsDeliveryReturns() {
        let subject = PublishSubject<Int>()
        let released = Locked(false)
        var parkedDuringDelivery: Int?
        var releasedDuringDelivery: Bool?
        var subscription: Disposable?
        do {
            let canary = Canary(released)
            subscription = subject.subscribe { _ in
                withExtendedLifetime(canary) {}
                subscription?.dispose()
                parkedDuringDelivery = self.parkedCount(subject)
                releasedDuringDelivery = released.current
            }
        }
        subject.onNext(1)
        XCTAssertEqual(parkedDuringDelivery, 1, "removed while in use: parked")
        XCTAssertEqual(releasedDuringDelivery, false)
        XCTAssertEqual(parkedCount(subject), 0, "released by the delivery as it returned")
        XCTAssertTrue(released.current)
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        subscription = nil
    }

    /// The sole observer sending a stop event to its subject inside a delivery: it
    /// receives it (nested), is parked until the outer delivery returns, and is then
    /// released; the subject is stopped.
    func testAnObserverThatStopsItsSubjectIsParkedUntilItsDeliveryReturns() {
        let subject = PublishSubject<Int>()
        let released = Locked(false)
        var events: [Event<Int>] = []
        var parkedDuringDelivery: Int?
        do {
            let canary = Canary(released)
            _ = subject.subscribe { event in
                withExtendedLifetime(canary) {}
                events.append(event)
                if case .next = event {
                    subject.onCompleted()
                    parkedDuringDelivery = self.parkedCount(subject)
                }
            }
        }
        subject.onNext(1)
        XCTAssertEqual(events, [.next(1), .completed])
        XCTAssertEqual(parkedDuringDelivery, 1)
        XCTAssertEqual(parkedCount(subject), 0)
        XCTAssertTrue(released.current)
        subject.onNext(2)
        XCTAssertEqual(events, [.next(1), .completed])
    }

    /// Disposing the subject from inside the sole observer's delivery parks it the same way.
    func testDisposingTheSubjectInsideADeliveryParksTheObserver() {
        let subject = PublishSubject<Int>()
        let released = Locked(false)
        var parkedDuringDelivery: Int?
        do {
            let canary = Canary(released)
            _ = subject.subscribe { _ in
                withExtendedLifetime(canary) {}
                subject.dispose()
                parkedDuringDelivery = self.parkedCount(subject)
            }
        }
        subject.onNext(1)
        XCTAssertEqual(parkedDuringDelivery, 1)
        XCTAssertEqual(parkedCount(subject), 0)
        XCTAssertTrue(released.current)
        XCTAssertTrue(subject.isDisposed)
    }

    /// With nothing in flight, an unsubscribed observer is released at once, not parked.
    func testAnObserverUnsubscribedBetweenDeliveriesIsReleasedAtOnce() {
        let subject = PublishSubject<Int>()
        let released = Locked(false)
        let subscription: Disposable
        do {
            let canary = Canary(released)
            subscription = subject.subscribe { _ in withExtendedLifetime(canary) {} }
        }
        subject.onNext(1)
        subscription.dispose()
        XCTAssertEqual(parkedCount(subject), 0)
        XCTAssertTrue(released.current)
        XCTAssertEqual(subject.deliveries.word.load(ordering: .relaxed), 0, "no delivery or mark left")
    }

    /// One thread sends while others subscribe and unsubscribe observers (each unsubscribing
    /// from outside, or from inside one of its deliveries): each observer receives a
    /// gapless run of the elements, and is released once its last delivery returned.
    func testUnderSubscriptionChurnEachObserverGetsAGaplessRunAndIsReleased() {
        let subject = PublishSubject<Int>()
        let problems = Locked<[String]>([])
        let sending = Locked(true)
        let senderStopped = DispatchSemaphore(value: 0)
        let sender = Thread {
            var value = 0
            while sending.current {
                subject.onNext(value)
                value += 1
            }
            senderStopped.signal()
        }
        sender.start()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for round in 0..<300 {
                // Written by the deliveries, read once the observer is released; locked all
                // the same, as ThreadSanitizer does not see the reference count that orders them.
                let received = Locked<[Int]>([])
                let released = Locked(false)
                let subscription = Locked<Disposable?>(nil)
                let selfUnsubscribing = (worker + round).isMultiple(of: 3)
                do {
                    let canary = Canary(released)
                    let disposable = subject.subscribe { event in
                        guard case .next(let value) = event else { return }
                        withExtendedLifetime(canary) {}
                        let count = received.withValue { values in
                            values.append(value)
                            return values.count
                        }
                        if selfUnsubscribing && count >= 3 { subscription.current?.dispose() }
                    }
                    subscription.withValue { $0 = disposable }
                }
                if !selfUnsubscribing {
                    for _ in 0..<Int.random(in: 0...50) { sched_yield() }
                    subscription.current?.dispose()
                }
                let deadline = Date().addingTimeInterval(10)
                while !released.current && Date() < deadline { usleep(100) }
                subscription.withValue { $0 = nil }
                let values = received.current
                if !released.current {
                    problems.withValue { $0.append("worker \(worker) round \(round): never released") }
                } else if let first = values.first, values != Array(first..<first + values.count) {
                    problems.withValue { $0.append("worker \(worker) round \(round): \(values.prefix(10))") }
                }
            }
        }
        sending.withValue { $0 = false }
        XCTAssertEqual(senderStopped.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(problems.current, [])
    }
}
