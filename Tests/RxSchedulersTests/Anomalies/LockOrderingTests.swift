import Foundation
import RxSchedulers
import XCTest

/// Lock-order hazards RxSwift fixed after 6.10 (#2711, #2713, and the resources a shared
/// interval left behind): an operator must not call out of its own lock into code that may
/// take another lock, or a thread holding that other lock and calling into the operator
/// deadlocks against it. Each test stands another lock in for "any lock downstream" and
/// times out (instead of hanging) when the operator calls out under its lock.
final class LockOrderingTests: RxTestCase {
    /// Runs the race these tests share: `source`'s teardown takes a foreign lock; one
    /// thread holds that lock and, once the teardown has started, sends into the operator
    /// (`send`, which needs the operator's lock); the other ends the source (`end`), so the
    /// operator tears it down. Returns whether the teardown got the foreign lock, which it
    /// cannot while the operator holds its own lock around the teardown.
    private func teardownGetsTheForeignLock<Element>(
        of source: PublishSubject<Element>, subscribe: (Observable<Element>) -> Disposable,
        send: @escaping () -> Void, end: @escaping () -> Void
    ) -> Bool {
        let foreign = NSRecursiveLock()
        let foreignHeld = DispatchSemaphore(value: 0)
        let teardownStarted = DispatchSemaphore(value: 0)
        let teardownGotTheForeignLock = Locked(false)
        let withTeardown = Observable<Element>.create { observer in
            let subscription = source.subscribe(observer)
            return Disposables.create {
                teardownStarted.signal()
                if foreign.lock(before: Date().addingTimeInterval(3)) {
                    foreign.unlock()
                    teardownGotTheForeignLock.withValue { $0 = true }
                }
                subscription.dispose()
            }
        }
        let subscription = subscribe(withTeardown)
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            foreign.lock()
            foreignHeld.signal()
            _ = teardownStarted.wait(timeout: .now() + 3)
            send()
            foreign.unlock()
            done.leave()
        }
        done.enter()
        DispatchQueue.global().async {
            _ = foreignHeld.wait(timeout: .now() + 3)
            end()
            done.leave()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        subscription.dispose()
        return teardownGotTheForeignLock.current
    }

    /// `merge` tears down a completed inner source outside its lock.
    func testMergeTearsDownACompletedInnerSourceOutsideItsLock() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let released = teardownGetsTheForeignLock(
            of: first, subscribe: { Observable.merge($0, second.asObservable()).subscribe() },
            send: { second.onNext(1) }, end: { first.onCompleted() })
        XCTAssertTrue(released, "merge disposed the inner subscription while holding its lock")
    }

    /// `switchLatest` (and `flatMapLatest`) tears its completed source down outside its lock.
    func testSwitchTearsDownItsCompletedSourceOutsideItsLock() {
        let outer = PublishSubject<Observable<Int>>()
        let inner = PublishSubject<Int>()
        let released = teardownGetsTheForeignLock(
            of: outer,
            subscribe: { source in
                let subscription = source.switchLatest().subscribe()
                outer.onNext(inner.asObservable())
                return subscription
            },
            send: { inner.onNext(1) }, end: { outer.onCompleted() })
        XCTAssertTrue(released, "switchLatest disposed its source while holding its lock")
    }

    /// `ReplaySubject` replays outside its lock: the replayed observer takes a foreign lock
    /// that a thread subscribing to the subject holds.
    func testReplaySubjectReplaysOutsideItsLock() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.onNext(1)
        let foreign = NSRecursiveLock()
        let foreignHeld = DispatchSemaphore(value: 0)
        let replayStarted = DispatchSemaphore(value: 0)
        let replayGotTheForeignLock = Locked(false)
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            foreign.lock()
            foreignHeld.signal()
            _ = replayStarted.wait(timeout: .now() + 3)
            subject.subscribe().dispose()  // needs the subject's lock
            foreign.unlock()
            done.leave()
        }
        done.enter()
        DispatchQueue.global().async {
            _ = foreignHeld.wait(timeout: .now() + 3)
            let subscription = subject.subscribe(onNext: { _ in
                replayStarted.signal()
                if foreign.lock(before: Date().addingTimeInterval(3)) {
                    foreign.unlock()
                    replayGotTheForeignLock.withValue { $0 = true }
                }
            })
            subscription.dispose()
            done.leave()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(replayGotTheForeignLock.current, "ReplaySubject replayed while holding its lock")
    }

    /// Two shared intervals merged and cut by `take(1)`, whose observer is slow: every
    /// timer and subscription is released afterwards, for every kind of share (RxSwift's
    /// resource check found such a path leaking 66 resources). `RxTestCase` checks
    /// `Resources.total` after the test.
    func testSharedIntervalsCutByTakeReleaseEverything() {
        let shares: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("replay 0 whileConnected", { $0.share(replay: 0, scope: .whileConnected) }),
            ("replay 0 forever", { $0.share(replay: 0, scope: .forever) }),
            ("replay 1 whileConnected", { $0.share(replay: 1, scope: .whileConnected) }),
            ("replay 1 forever", { $0.share(replay: 1, scope: .forever) }),
            ("replay 2 whileConnected", { $0.share(replay: 2, scope: .whileConnected) }),
            ("replay 2 forever", { $0.share(replay: 2, scope: .forever) }),
        ]
        for (name, share) in shares {
            let completed = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                func ticks(every period: RxTimeInterval) -> Observable<Int> {
                    let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "ticks", attributes: .concurrent), leeway: .milliseconds(0))
                    return share(Observable<Int>.interval(period, scheduler: scheduler))
                }
                _ = Observable.of(ticks(every: .milliseconds(20)), ticks(every: .milliseconds(30)))
                    .merge()
                    .take(1)
                    .subscribe(onNext: { _ in Thread.sleep(forTimeInterval: 0.04) }, onCompleted: { completed.signal() })
            }
            XCTAssertEqual(completed.wait(timeout: .now() + 5), .success, name)
        }
    }
}
