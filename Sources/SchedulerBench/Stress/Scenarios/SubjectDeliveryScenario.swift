import BenchModel
import Foundation
import RxSchedulers

/// `subject.delivery`: a `PublishSubject` delivers to its sole observer without its lock
/// and without retaining it, so an observer removed while a delivery to it runs must stay
/// alive until that delivery returns.
///
/// A sender thread sends increasing integers while 1–3 threads subscribe observers one
/// after another and end each subscription one of three ways: from the subscribing thread
/// after a random pause of up to 20 µs (`outside`); from inside the observer at a random
/// delivery (`inside`); or from the subscribing thread while the observer waits inside a
/// delivery for that dispose to return (`handshake`, up to 2 ms). Once per iteration, at
/// the end, a last observer sends the subject's stop event or disposes the subject from
/// inside a delivery (`stop`, `dispose`), or the sender stops and then completes the
/// subject (`fromSender`). Each observer's closure captures a canary that flags its
/// release. Checked:
/// - no delivery finds its observer already released, at its start or after the dispose it
///   made or waited for (`use_after_release`);
/// - each observer receives a gapless, increasing run of the elements (`lost`,
///   `duplicate`, `reorder`), and at most one stop event, last (`grammar`);
/// - every observer is released once its subscription ended and its last delivery
///   returned (`leak`), and `Resources.total` returns to its baseline (`leak`).
///
/// The canary sees the release of the observer's closure itself only in a release build
/// (a debug build copies the closure around the call, which keeps it alive); the default
/// stress build is one.
final class SubjectDeliveryScenario: CataloguedStressScenario {
    static let name = StressScenarioName.subjectDelivery
    static let summary =
        "PublishSubject's sole observer called without a lock or a retain: unsubscribed from outside, from inside, or while it waits, it is released only after its delivery"
    static let checks: [ViolationKind] = [.useAfterRelease, .lost, .duplicate, .reorder, .grammar, .leak, .hang, .crash]

    enum Ending: String, CaseIterable { case outside, inside, handshake }
    enum Finale: String, CaseIterable { case stop, dispose, fromSender }

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let churners = Int.random(in: 1...3, using: &random)
        let rounds = Int.random(in: 4...40, using: &random)
        let finale = random.pick(Finale.allCases)
        let baseline = Resources.total
        do {
            let subject = PublishSubject<Int>()
            let sending = SharedFlag()
            let senderDone = SharedFlag()
            let sent = SharedCounter()
            // Holds the subject only while sending an element, so that the subject is gone
            // by the resource check however long the thread object lives.
            let sender = Thread { [weak subject] in
                var value = 0
                while !sending.isSet, let subject {
                    subject.onNext(value)
                    value += 1
                    sent.increment()
                }
                senderDone.set()
            }
            sender.start()
            iteration.concurrently(churners, name: "subject") { thread, random in
                for round in 0..<rounds {
                    iteration.beat()
                    let ending = random.pick(Ending.allCases)
                    let probe = SubjectProbe(
                        label: "thread \(thread) round \(round) \(ending.rawValue)", iteration: iteration, progress: { sent.load() })
                    probe.endAt = Int.random(in: 1...8, using: &random)
                    probe.ending = ending
                    Self.subscribe(probe, to: subject)
                    switch ending {
                    case .outside:
                        // A pause of up to 20 µs, spun: a yield can cost a whole time slice
                        // beside the busy sender.
                        let until = MonotonicClock.now() + UInt64.random(in: 0...20_000, using: &random)
                        while MonotonicClock.now() < until {}
                        probe.currentSubscription?.dispose()
                    case .inside:
                        if !probe.await(probe.ended) { probe.currentSubscription?.dispose() }
                    case .handshake:
                        if probe.await(probe.waiting) {
                            probe.currentSubscription?.dispose()
                            probe.disposed.set()
                        } else {
                            probe.currentSubscription?.dispose()
                        }
                    }
                    probe.expectReleased()
                    iteration.countOperations(probe.deliveries)
                }
            }
            // The finale: the last observer ends the subject from inside a delivery, or
            // the sender stops it.
            let last = SubjectProbe(label: "finale \(finale.rawValue)", iteration: iteration, progress: { sent.load() })
            last.finale = finale == .fromSender ? nil : finale
            last.endAt = Int.random(in: 1...8, using: &random)
            Self.subscribe(last, to: subject, ending: { event in
                switch finale {
                case .stop: subject.onCompleted()
                case .dispose: subject.dispose()
                case .fromSender: break
                }
            })
            if finale != .fromSender {
                if !last.await(last.ended) {
                    iteration.violation(.lost, "finale \(finale.rawValue): the last observer got no delivery in 2 s (\(sent.load()) sent)")
                }
            }
            sending.set()
            if iteration.wait(quietFor: 2, progress: { sent.load() }, until: { senderDone.isSet }) != nil {
                iteration.violation(.hang, "the sender did not stop: it sent nothing more for 2 s after being told to, and never stopped")
            }
            if finale == .fromSender { subject.onCompleted() }
            last.expectReleased()
        }
        iteration.expectResources(back: baseline, "the subject and its observers were released")
    }

    /// Subscribes `probe`'s observer: a closure over the probe and its canary only, so the
    /// subject's release of the observer frees the canary.
    private static func subscribe(_ probe: SubjectProbe, to subject: PublishSubject<Int>, ending: ((Event<Int>) -> Void)? = nil) {
        let canary = SubjectProbe.Canary(probe.released)
        probe.endFinale = ending
        let subscription = subject.subscribe(
            AnyObserver { [canary, probe] event in
                withExtendedLifetime(canary) {}
                probe.deliver(event)
            })
        probe.currentSubscription = subscription
    }
}

/// One observer of `subject.delivery`: what it received, and the flags its scenario
/// thread and its deliveries hand over. Kept alive by the scenario thread, not by the
/// observer's closure, so its checks run after the closure was released.
final class SubjectProbe: @unchecked Sendable {
    /// Flags its probe when the closure that captured it is released.
    final class Canary {
        let released: SharedFlag
        init(_ released: SharedFlag) { self.released = released }
        deinit { released.set() }
    }

    let label: String
    let iteration: StressIteration
    /// The sender's count of elements sent: a wait for a delivery lasts while it moves.
    let progress: @Sendable () -> Int
    let released = SharedFlag()
    let ended = SharedFlag()
    let waiting = SharedFlag()
    let disposed = SharedFlag()
    private let lock = NSLock()
    private var subscription: Disposable?
    /// The observer's subscription, once `subscribe` returned it (read by its deliveries).
    var currentSubscription: Disposable? {
        get { lock.withLock { subscription } }
        set { lock.withLock { subscription = newValue } }
    }
    var ending = SubjectDeliveryScenario.Ending.outside
    var finale: SubjectDeliveryScenario.Finale?
    var endFinale: ((Event<Int>) -> Void)?
    var endAt = 1
    // Written by the deliveries, one at a time (one sender), and read by the scenario
    // thread once the canary says the observer is gone; under `lock` all the same, since
    // the release that orders the two is a reference count ThreadSanitizer does not see.
    private var delivered = 0
    private var last: Int?
    private var stopped = false
    var deliveries: Int { lock.withLock { delivered } }

    init(label: String, iteration: StressIteration, progress: @escaping @Sendable () -> Int) {
        self.label = label
        self.iteration = iteration
        self.progress = progress
    }

    func deliver(_ event: Event<Int>) {
        if released.isSet { iteration.violation(.useAfterRelease, "\(label): a delivery started after the subject released its observer") }
        let count: Int = lock.withLock {
            if stopped { iteration.violation(.grammar, "\(label): \(event) after the stop event") }
            switch event {
            case .next(let value):
                if let last, value != last + 1 {
                    let kind: ViolationKind = value <= last ? (value == last ? .duplicate : .reorder) : .lost
                    iteration.violation(kind, "\(label): \(value) after \(last)")
                }
                last = value
            case .error, .completed:
                stopped = true
            }
            delivered += 1
            return delivered
        }
        guard count == endAt, !ended.isSet else { return }
        if let finale {
            endFinale?(event)
            check(after: "sending the finale (\(finale.rawValue)) from inside its delivery")
            ended.set()
            return
        }
        switch ending {
        case .outside:
            break
        case .inside:
            guard let own = currentSubscription else {
                endAt += 1  // delivered before `subscribe` returned its disposable: the next one
                return
            }
            own.dispose()
            check(after: "disposing its own subscription")
            ended.set()
        case .handshake:
            waiting.set()
            let deadline = MonotonicClock.now() + 2_000_000
            while !disposed.isSet && MonotonicClock.now() < deadline { sched_yield() }
            if disposed.isSet { check(after: "its subscription was disposed from another thread") }
            ended.set()
        }
    }

    private func check(after what: String) {
        if released.isSet { iteration.violation(.useAfterRelease, "\(label): released while its delivery ran, after \(what)") }
    }

    /// Waits for `flag`, which the sender's deliveries set within microseconds: yielding
    /// at first, then while the sender sends, until it has sent nothing for 2 s of the
    /// process's time. Returns whether it was set.
    func await(_ flag: SharedFlag) -> Bool {
        for _ in 0..<1_000 where !flag.isSet { sched_yield() }
        return flag.isSet || iteration.wait(quietFor: 2, progress: progress, until: { flag.isSet }) == nil
    }

    /// Waits for the observer's release, which follows its last delivery (`leak` if it has
    /// not come once the sender has sent nothing for 2 s).
    func expectReleased() {
        if !await(released) {
            iteration.violation(.leak, "\(label): never released after its subscription ended (\(deliveries) deliveries)")
        }
        currentSubscription = nil
    }
}
