import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `merge.fanIn`: `merge`, `flatMap` and `merge(maxConcurrent:)` with their sources on
/// threads of their own.
///
/// Hot (`Observable.merge` of subjects, or `flatMap` over an outer subject of them): 2–5
/// subjects, each sent to from its own thread (`source << 32 | sequence`), then completed;
/// a third of the iterations one of them fails at a random point instead, and a quarter
/// the observer, on every eighth event of the first source, sends into one more subject
/// of the same merge from inside its call (re-entrant, on whichever thread is
/// delivering). One iteration in eight disposes the subscription from another thread
/// while the sources send. Checked: deliveries never overlap (`overlap`, a re-entrant
/// event delivered inside the call that sent it included); each source's events arrive
/// once and in order (`reorder`, `duplicate`, `lost`); one stop event, last (`grammar`);
/// `completed` only once every event sent has arrived (`lost`); a stop event at all
/// (`lost` when none has come 1 s after the last delivery, judged by progress). Without an
/// error or a dispose, the senders meet every 1–8 events (half the iterations) or only
/// before their last event, and send on from each meeting at once: at every meeting, and
/// after the last events before any source completes, every event sent must have arrived
/// (`lost`: an event left in merge's queue with nobody delivering).
///
/// Cold (`merge(maxConcurrent: k)`, k 1–3, of 3–8 sources that each start a thread when
/// subscribed, send, and complete): never more than k sources running (`over_limit`),
/// and every source's events, in order, before `completed`.
///
/// Both: `Resources.total` back to its baseline (`leak`).
final class MergeFanInScenario: CataloguedStressScenario {
    static let name = StressScenarioName.mergeFanIn
    static let summary =
        "merge/flatMap/merge(maxConcurrent:) with sources on their own threads, re-entrant sends, a racing error: one call at a time, each source's order, completed last, the limit kept"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .overlap, .grammar, .overLimit, .leak, .hang, .crash]

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let baseline = Resources.total
        if random.chance(0.25) {
            runCold(iteration, &random)
        } else {
            runHot(iteration, &random)
        }
        iteration.expectResources(back: baseline, "merge.fanIn ended")
    }

    private func runHot(_ iteration: StressIteration, _ random: inout StressRandom) {
        let sources = Int.random(in: 2...5, using: &random)
        let events = random.chance(0.5) ? Int.random(in: 1...30, using: &random) : Int.random(in: 30...400, using: &random)
        let failing = random.chance(1.0 / 3) ? Int.random(in: 0..<sources, using: &random) : nil
        let echoes = random.chance(0.25)
        let viaFlatMap = random.chance(0.5)
        let disposesEarly = random.chance(0.125)
        let label = "\(viaFlatMap ? "flatMap" : "merge") of \(sources)\(echoes ? " with re-entrant sends" : "")"

        // Each subject is sent to from its own thread only: its calls are serial.
        let subjects = (0..<sources).map { _ in PublishSubject<Int>() }
        let echo = PublishSubject<Int>()
        let merged = (echoes ? subjects + [echo] : subjects).map { $0.asObservable() }
        let checker = DeliveryChecker(producers: sources + 1, iteration: iteration)
        let stopped = DispatchSemaphore(value: 0)
        let echoed = SharedCounter()
        let observer = AnyObserver<Int> { event in
            checker.enter()
            defer { checker.leave() }
            checker.check(event)
            if echoes, case .next(let element) = event, element >> 32 == 0, element & 7 == 0 {
                echo.onNext(sources << 32 | (echoed.increment() - 1))
            }
            if event.isStopEvent { stopped.signal() }
        }
        let subscription: Disposable
        if viaFlatMap {
            let outer = PublishSubject<Observable<Int>>()
            subscription = outer.flatMap { $0 }.subscribe(observer)
            for source in merged { outer.onNext(source) }
            outer.onCompleted()
        } else {
            subscription = Observable.merge(merged).subscribe(observer)
        }
        nonisolated(unsafe) let disposable = subscription
        let sent = SharedCounter()
        let threads = sources + (disposesEarly ? 1 : 0)
        // Without an error or a dispose, the senders meet every `span` events and before
        // their last, send on from each meeting at once, and stop after the last without
        // completing. An event stranded in the serializer's queue (a lost wake-up) would be
        // delivered by the next send, so only a pause with none after it shows it: each
        // meeting is one (its last arrival checks that every event sent has arrived), and
        // so is the end.
        let meets = failing == nil && !disposesEarly
        let span = random.chance(0.5) ? Int.random(in: 1...8, using: &random) : events
        let meeting = SenderMeeting(parties: sources)
        let sentSoFar: @Sendable () -> Int = { sent.load() + echoed.load() }
        iteration.concurrently(threads, name: "merge.fanIn") { thread, random in
            if thread == sources {
                usleep(UInt32.random(in: 0...300, using: &random))
                disposable.dispose()
                return
            }
            let failsAt = thread == failing ? Int.random(in: 0...events, using: &random) : nil
            for sequence in 0..<events {
                if sequence == failsAt { break }
                if sequence & 63 == 0 { iteration.beat() }
                if meets && (sequence == events - 1 || (sequence > 0 && sequence % span == 0)) {
                    meeting.meet {
                        // Every sender has returned from its sends: every event sent has been
                        // delivered. One loss is enough: the next sends deliver what was stranded.
                        if !iteration.hasViolations,
                            iteration.wait(quietFor: 1, progress: { checker.delivered }, until: { checker.delivered == sentSoFar() }) != nil
                        {
                            let arrived = "\(checker.delivered) of the \(sentSoFar()) events sent arrived"
                            iteration.violation(.lost, "\(label): \(arrived) by the senders' meeting before event \(sequence)")
                        }
                    }
                }
                subjects[thread].onNext(thread << 32 | sequence)
                sent.increment()
                if random.chance(1.0 / 64) { sched_yield() }
            }
            if failsAt != nil {
                subjects[thread].onError(StressError())
            } else if !meets {
                subjects[thread].onCompleted()
            }
        }
        if meets {
            if iteration.wait(quietFor: 1, progress: { checker.delivered }, until: { checker.delivered == sentSoFar() }) != nil {
                iteration.violation(.lost, "\(label): \(checker.delivered) of the \(sentSoFar()) events sent arrived once every sender had stopped")
            }
            // Each subject was sent to from its own thread, which has returned: completing
            // them from here keeps each subject's calls serial.
            for subject in subjects { subject.onCompleted() }
        }
        // Every event the observer sends into `echo` was sent inside a delivery, and every
        // delivery has ended once the senders returned: `echo` can complete.
        echo.onCompleted()
        iteration.countOperations(sent.load())

        if !disposesEarly {
            let expected = sentSoFar()
            if let expiry = iteration.wait(stopped, quietFor: 1, progress: { checker.delivered }) {
                let what = expiry == .stillProgressing ? "still delivering after \(Int(ProgressDeadline.defaultCapSeconds)) s" : "no delivery for 1 s"
                iteration.violation(.lost, "\(label): no stop event (\(what); \(checker.delivered) of \(expected) events delivered)")
            } else if failing == nil {
                if checker.firstStop != "completed" {
                    iteration.violation(.grammar, "\(label): \(checker.firstStop ?? "nothing") instead of completed")
                } else if checker.delivered != expected {
                    iteration.violation(.lost, "\(label): completed after \(checker.delivered) of the \(expected) events sent")
                }
                iteration.outcome("completed after every event")
            } else {
                iteration.outcome(checker.firstStop == "error" ? "the error ended it" : "completed before the error")
            }
            checker.finish(label)
            if checker.stopCount > 1 { iteration.violation(.grammar, "\(label): \(checker.stopCount) stop events: \(checker.allStops)") }
        } else {
            iteration.outcome("disposed while sending")
        }
        subscription.dispose()
    }

    private func runCold(_ iteration: StressIteration, _ random: inout StressRandom) {
        let limit = Int.random(in: 1...3, using: &random)
        let sources = Int.random(in: 3...8, using: &random)
        let events = Int.random(in: 1...100, using: &random)
        let label = "merge(maxConcurrent: \(limit)) of \(sources) sources on threads of their own"
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let threads = DispatchGroup()
        let observables = (0..<sources).map { source in
            Observable<Int>.create { observer in
                let now = running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
                var seen = most.load(ordering: .relaxed)
                while now > seen {
                    let (exchanged, current) = most.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                    if exchanged { break }
                    seen = current
                }
                threads.enter()
                // The source's thread is its only caller (the core's observers are called serially).
                nonisolated(unsafe) let observer = observer
                Thread.detachNewThread {
                    Perturbation.nameThisThread("merge.fanIn source \(source)")
                    for sequence in 0..<events { observer.onNext(source << 32 | sequence) }
                    running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                    observer.onCompleted()
                    threads.leave()
                }
                return Disposables.create()
            }
        }
        let checker = DeliveryChecker(producers: sources, iteration: iteration)
        let stopped = DispatchSemaphore(value: 0)
        let subscription = Observable.from(observables).merge(maxConcurrent: limit).subscribe(checker.observer(signallingStopOn: stopped))
        iteration.countOperations(sources * events)
        if let expiry = iteration.wait(stopped, quietFor: 1, progress: { checker.delivered }) {
            let what = expiry == .stillProgressing ? "still delivering after \(Int(ProgressDeadline.defaultCapSeconds)) s" : "no delivery for 1 s"
            iteration.violation(.lost, "\(label): no completed (\(what); \(checker.delivered) of \(sources * events) events delivered)")
        } else if checker.delivered != sources * events {
            iteration.violation(.lost, "\(label): completed after \(checker.delivered) of \(sources * events) events")
        }
        if most.load(ordering: .relaxed) > limit {
            iteration.violation(.overLimit, "\(label): \(most.load(ordering: .relaxed)) sources ran at once")
        }
        checker.finish(label)
        if checker.stopCount > 1 { iteration.violation(.grammar, "\(label): \(checker.stopCount) stop events: \(checker.allStops)") }
        _ = iteration.wait(upTo: 10) { threads.wait(timeout: .now()) == .success }
        subscription.dispose()
    }
}

/// Senders that wait for one another between rounds of sending. The last to arrive at a
/// meeting runs its check while the others wait, then lets them all go on at once: a
/// waiter spins a little (one still on a core sets off with the last), then sleeps (so
/// waiters on a loaded machine leave the cores to the threads still to come).
private final class SenderMeeting: @unchecked Sendable {
    private let parties: Int
    private let arrivals = Atomic<Int>(0)
    /// Written under `ended`'s lock, read without it while spinning.
    private let meetingsEnded = Atomic<Int>(0)
    private let ended = NSCondition()
    /// Loads of `meetingsEnded` a waiter makes before it sleeps.
    private static let spins = 20_000

    init(parties: Int) { self.parties = parties }

    /// Waits until all `parties` have called it as often as this thread has (a thread
    /// that never comes is a hang, which the watchdog reports); the last to arrive runs
    /// `check` first.
    func meet(check: () -> Void) {
        let arrival = arrivals.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        let meeting = (arrival + parties - 1) / parties
        if arrival == meeting * parties {
            check()
            ended.withLock {
                meetingsEnded.store(meeting, ordering: .releasing)
                ended.broadcast()
            }
            return
        }
        for _ in 0..<Self.spins where meetingsEnded.load(ordering: .acquiring) >= meeting { return }
        ended.withLock {
            while meetingsEnded.load(ordering: .acquiring) < meeting { ended.wait() }
        }
    }
}
