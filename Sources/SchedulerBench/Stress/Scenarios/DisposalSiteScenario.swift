import BenchModel
import Foundation
import RxSchedulers

/// `disposal.site`: where a disposal runs. `subscribe(on: S)` subscribes to its source on
/// `S` and disposes that subscription on `S` too (RxSwift's contract: a source that
/// must be torn down on its own queue, a UI element or a non-thread-safe resource, relies
/// on it), whichever thread disposes and whenever: at once, from inside an element, from
/// another thread, or after the source completed.
///
/// Each iteration subscribes 1–8 times through `subscribe(on:)` to a source that sends
/// 0–50 elements (and completes half the time), on a scheduler whose queue or thread is
/// tagged: a serial or concurrent dispatch queue with a queue-specific value (per-action or
/// batched dispatch), an `OperationQueue`, or `MainScheduler.instance`/`asyncInstance`
/// (the main thread). The source's disposal records where it ran. Checked:
/// - a source that was subscribed is disposed exactly once (`duplicate`; `leak` if it never
///   is once every core object of the iteration is gone), on its scheduler (`wrong_site`);
/// - `Resources.total` returns to its baseline (`leak`).
///
/// A quarter of the iterations check instead the disposal of a `flatMap` inner subscription
/// that is disposed while it is still being subscribed: a thread makes the outer subject emit,
/// and the inner source's subscribe waits (up to 200 ms) until another thread has disposed
/// the whole subscription; the inner's disposable, returned after that, must then be
/// disposed at once, exactly once (`leak`, `duplicate`). This is the late assignment of a
/// `SingleAssignmentDisposable`, which `subscribe(on:)` cannot reach (nothing can dispose its
/// subscription before `subscribe` returns it).
///
/// Outcomes: whether the disposal came before the source was subscribed (then it never is),
/// and for the inner shape whether the dispose came while the inner was subscribing.
final class DisposalSiteScenario: CataloguedStressScenario {
    static let name = StressScenarioName.disposalSite
    static let summary =
        "subscribe(on: S) disposes its source's subscription on S, once, whoever disposes and whenever; flatMap disposes an inner subscription that arrives after its disposal"
    static let checks: [ViolationKind] = [.wrongSite, .duplicate, .leak, .hang, .crash]

    /// A scheduler whose queue or thread can be recognised from inside an action.
    private struct Target {
        var label: String
        var scheduler: ImmediateSchedulerType
        /// Whether the calling code runs on the target's queue or thread.
        var isCurrent: @Sendable () -> Bool
    }

    private static let key = DispatchSpecificKey<Int>()

    private func makeTarget(_ random: inout StressRandom, tag: Int) -> Target {
        let key = Self.key
        let dispatch = random.pick(SchedulerDispatch.allCases)
        switch random.next() % 5 {
        case 0:
            let scheduler = SerialDispatchQueueScheduler(
                internalSerialQueueName: "stress.disposal.serial", serialQueueConfiguration: { $0.setSpecific(key: key, value: tag) }, dispatch: dispatch)
            return Target(label: "serial/\(dispatch.rawValue)", scheduler: scheduler) { DispatchQueue.getSpecific(key: key) == tag }
        case 1:
            let queue = DispatchQueue(label: "stress.disposal.concurrent", attributes: .concurrent)
            queue.setSpecific(key: key, value: tag)
            return Target(label: "concurrent/\(dispatch.rawValue)", scheduler: ConcurrentDispatchQueueScheduler(queue: queue, dispatch: dispatch)) {
                DispatchQueue.getSpecific(key: key) == tag
            }
        case 2:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = Int.random(in: 1...2, using: &random)
            return Target(label: "operationQueue", scheduler: OperationQueueScheduler(operationQueue: queue)) { OperationQueue.current === queue }
        case 3:
            return Target(label: "mainShared", scheduler: MainScheduler.instance) { Thread.isMainThread }
        default:
            return Target(label: "mainAsync", scheduler: MainScheduler.asyncInstance) { Thread.isMainThread }
        }
    }

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        if random.chance(0.25) {
            runInnerDisposedWhileSubscribing(iteration)
            return
        }
        // Its scheduler is called from the subscribing threads, as schedulers are (the core's types and Sendable).
        nonisolated(unsafe) let target = makeTarget(&random, tag: iteration.index + 1)
        let subscriptions = Int.random(in: 1...8, using: &random)
        let baseline = Resources.total
        let records = (0..<subscriptions).map { _ in SiteRecord() }

        iteration.concurrently(subscriptions, name: "disposal.site") { index, random in
            let record = records[index]
            let elements = Int.random(in: 0...50, using: &random)
            let completes = random.chance(0.5)
            let isCurrent = target.isCurrent
            let source = Observable<Int>.create { observer in
                record.subscribed()
                for element in 0..<elements { observer.onNext(element) }
                if completes { observer.onCompleted() }
                return Disposables.create { record.disposed(onScheduler: isCurrent()) }
            }
            let disposeAt = elements == 0 || random.chance(0.25) ? nil : Int.random(in: 0..<elements, using: &random)
            let holder = SubscriptionHolder()
            let subscription = source.subscribe(on: target.scheduler).subscribe(onNext: { element in
                if element == disposeAt { holder.dispose() }
            })
            holder.set(subscription)
            switch (random.next() % 3, disposeAt) {
            case (0, _), (_, nil): holder.dispose()  // at once, from this thread, racing the scheduled subscribe
            case (1, _):
                // From another thread, a little later.
                let other = Thread { holder.dispose() }
                other.start()
            default: break  // from inside element `disposeAt`
            }
            if random.chance(1.0 / 8) { sched_yield() }
        }
        iteration.countOperations(subscriptions)

        // Every subscription is disposed by someone (this thread, another one, or an element).
        // A scheduled subscribe already running when it was disposed still subscribes, and its
        // disposal is scheduled then: once the core's objects of the iteration are all gone,
        // every disposal has run.
        iteration.expectResources(back: baseline, "\(target.label): \(subscriptions) subscriptions disposed")
        for (index, record) in records.enumerated() {
            let (subscribed, disposals, offSite) = record.snapshot
            if offSite > 0 {
                iteration.violation(.wrongSite, "\(target.label): subscription \(index)'s source disposed off its scheduler (\(offSite) of \(disposals))")
            }
            if disposals > 1 { iteration.violation(.duplicate, "\(target.label): subscription \(index)'s source disposed \(disposals) times") }
            if subscribed && disposals == 0 {
                iteration.violation(.leak, "\(target.label): subscription \(index)'s source subscribed and never disposed")
            }
            iteration.outcome(subscribed ? "subscribed, then disposed" : "disposed before it subscribed")
        }
    }
}

extension DisposalSiteScenario {
    /// `flatMap`'s inner subscription, disposed while the inner source is subscribing.
    private func runInnerDisposedWhileSubscribing(_ iteration: StressIteration) {
        let baseline = Resources.total
        let record = SiteRecord()
        let innerSubscribing = DispatchSemaphore(value: 0)
        let disposedWhileSubscribing = DispatchSemaphore(value: 0)
        let disposedInTime = Locked(false)
        // In a function of its own, so that the source, the subject and the subscription are
        // gone before the resources are counted.
        func subscribeAndDispose() {
            let inner = Observable<Int>.create { observer in
                record.subscribed()
                innerSubscribing.signal()
                // Normally signalled at once; the limit only keeps a merge that disposed under a
                // lock this subscribe holds from deadlocking the iteration.
                let disposedFirst = disposedWhileSubscribing.wait(timeout: .now() + .milliseconds(200)) == .success
                observer.onNext(disposedFirst ? 1 : 0)
                return Disposables.create { record.disposed(onScheduler: true) }
            }
            let subject = PublishSubject<Int>()
            // Disposed from another thread, as the core's disposables may be.
            nonisolated(unsafe) let subscription = subject.flatMap { _ in inner }.subscribe()
            let outer = subject
            iteration.concurrently(2, name: "disposal.site.inner") { thread, _ in
                if thread == 0 {
                    outer.onNext(0)  // subscribes the inner source on this thread
                } else {
                    let subscribing = innerSubscribing.wait(timeout: .now() + .seconds(30)) == .success
                    subscription.dispose()
                    disposedWhileSubscribing.signal()
                    disposedInTime.withLock { $0 = subscribing }
                }
            }
        }
        subscribeAndDispose()
        iteration.countOperations(1)
        iteration.expectResources(back: baseline, "flatMap: the subscription disposed while its inner source subscribed")
        let (subscribed, disposals, _) = record.snapshot
        if subscribed && disposals == 0 {
            iteration.violation(.leak, "flatMap: the inner subscription, returned after the whole subscription was disposed, was never disposed")
        }
        if disposals > 1 { iteration.violation(.duplicate, "flatMap: the inner subscription disposed \(disposals) times") }
        iteration.outcome(disposedInTime.withLock { $0 } ? "inner: disposed while it subscribed" : "inner: disposed after it subscribed")
    }
}

/// What happened to one subscription's source: subscribed, disposed, and where.
private final class SiteRecord: Sendable {
    private let state = Locked((subscribed: false, disposals: 0, offSite: 0))

    func subscribed() { state.withLock { $0.subscribed = true } }

    func disposed(onScheduler: Bool) {
        state.withLock {
            $0.disposals += 1
            if !onScheduler { $0.offSite += 1 }
        }
    }

    var snapshot: (Bool, Int, Int) { state.withLock { ($0.subscribed, $0.disposals, $0.offSite) } }
}

/// The subscription, for an element that disposes it from inside: an element may arrive
/// (on the scheduler) before `subscribe` has returned the subscription to `set`.
private final class SubscriptionHolder: Sendable {
    /// The subscription once set, and whether a dispose came before it. One lock for both,
    /// so a dispose between `set`'s two steps cannot be lost.
    private let state = Locked<(subscription: Disposable?, disposeRequested: Bool)>((nil, false))

    func set(_ disposable: Disposable) {
        // The core's disposables are made to be disposed from any thread.
        nonisolated(unsafe) let disposable = disposable
        let requested = state.withLock { state in
            state.subscription = disposable
            return state.disposeRequested
        }
        if requested { disposable.dispose() }
    }

    /// Disposes the subscription now, or as soon as it is set.
    func dispose() {
        nonisolated(unsafe) let current = state.withLock { state -> Disposable? in
            if state.subscription == nil { state.disposeRequested = true }
            return state.subscription
        }
        current?.dispose()
    }
}
