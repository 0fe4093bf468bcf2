import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `observeOn.dispose`: observe(on:) on every scheduler × strategy, disposed at a random
/// point in one of four ways.
///
/// 1–3 producer threads send `(producer, sequence)` through a `PublishSubject`.
/// - `none`: never disposed: everything arrives in per-producer order, then `completed`
///   (`lost` if nothing has been delivered for 2 s without it: a stranded stop event when
///   every next arrived, a stop in delivery otherwise; a run still delivering at the 60 s
///   cap says so).
/// - `inside`: the observer disposes at a random delivery: nothing is delivered after
///   `dispose()` returns, on any scheduler (`after_dispose`).
/// - `block`: on a serial scheduler, a separate block scheduled on it disposes: nothing
///   is delivered after it returns (`after_dispose`).
/// - `thread`: another thread disposes at a random moment: a delivery that had already
///   passed its check may still finish, so deliveries *starting* after `dispose()`
///   returned are counted as outcomes: 0 or 1 acceptable, 2 or more forbidden.
///
/// Always: deliveries one at a time (`overlap`), per-producer order with no gap before
/// the dispose (`lost`, `reorder`, `duplicate`), and `Resources.total` back to its baseline
/// once the subscription and the scheduler are gone (`leak`).
final class ObserveOnDisposeScenario: CataloguedStressScenario {
    static let name = StressScenarioName.observeOnDispose
    static let summary =
        "observe(on:) × scheduler × strategy, disposed inside the observer, from a block on its scheduler, or from another thread"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .afterDispose, .overlap, .grammar, .leak, .hang, .crash]

    enum Mode: String, CaseIterable { case none, inside, block, thread }

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let target = random.pick(StressScheduler.allCases)
        let strategy = random.pick(ObserveOnStrategy.all)
        let modes = Mode.allCases.filter { $0 != .block || target.isSerial }
        let mode = random.pick(modes)
        let producers = Int.random(in: 1...3, using: &random)
        let events = random.chance(0.5) ? Int.random(in: 1...64, using: &random) : Int.random(in: 64...2_000, using: &random)
        let disposeAt = Int.random(in: 1...(producers * events), using: &random)
        let label = "\(target.rawValue)/\(strategy.name)/\(mode.rawValue)"
        let baseline = Resources.total

        do {
            // Called from every scenario thread (Workload: the core's types and Sendable).
            nonisolated(unsafe) let scheduler = target.make()
            let subject = PublishSubject<Int>()
            let checker = DeliveryChecker(producers: producers, iteration: iteration)
            let subscription = SingleAssignmentDisposable()
            let disposeReturned = SharedFlag()
            let startedAfterDispose = SharedCounter()
            let stopped = DispatchSemaphore(value: 0)
            let disposedInside = SharedFlag()

            subscription.setDisposable(
                subject.observe(on: scheduler, strategy: strategy).subscribe(
                    AnyObserver { event in
                        checker.enter()
                        defer { checker.leave() }
                        if disposeReturned.isSet { startedAfterDispose.increment() }
                        checker.check(event)
                        if event.isStopEvent { stopped.signal() }
                        if mode == .inside, checker.delivered == disposeAt, !disposedInside.isSet {
                            subscription.dispose()
                            disposeReturned.set()
                            disposedInside.set()
                        }
                    }))

            iteration.concurrently(producers + (mode == .none ? 0 : 1), name: "observeOn") { thread, random in
                if thread == producers {
                    // The disposer: waits for a random number of deliveries (at most 2 ms), then
                    // disposes from this thread or from a block on the observing scheduler.
                    let target = Int.random(in: 0...(producers * events), using: &random)
                    let deadline = MonotonicClock.now() + UInt64.random(in: 0...2_000_000, using: &random)
                    while checker.delivered < target && MonotonicClock.now() < deadline && !disposeReturned.isSet { sched_yield() }
                    switch mode {
                    case .thread:
                        subscription.dispose()
                        disposeReturned.set()
                    case .block:
                        let done = DispatchSemaphore(value: 0)
                        _ = scheduler.schedule(()) { _ in
                            subscription.dispose()
                            disposeReturned.set()
                            done.signal()
                            return Disposables.create()
                        }
                        // The block queues behind deliveries still running on the scheduler.
                        if let expiry = iteration.wait(done, quietFor: 2, progress: { checker.delivered }) {
                            iteration.violation(
                                .lost,
                                "\(label): the disposing block never ran: "
                                    + (expiry == .noProgress
                                        ? "nothing delivered for 2 s (\(checker.delivered) delivered)"
                                        : "deliveries still arriving after \(Int(ProgressDeadline.defaultCapSeconds)) s"))
                            disposeReturned.set()
                        }
                    default:
                        break
                    }
                    return
                }
                for sequence in 0..<events {
                    if sequence & 63 == 0 { iteration.beat() }
                    subject.onNext(thread << 32 | sequence)
                    if random.chance(1.0 / 256) { sched_yield() }
                }
            }
            iteration.countOperations(producers * events)

            switch mode {
            case .none:
                subject.onCompleted()
                if let expiry = iteration.wait(stopped, quietFor: 2, progress: { checker.delivered }) {
                    let delivered = checker.deliveredPerProducer
                    let allNexts = delivered == [Int](repeating: events, count: producers)
                    let what =
                        expiry == .stillProgressing
                        ? "still delivering after \(Int(ProgressDeadline.defaultCapSeconds)) s"
                        : allNexts ? "a stranded stop event: every next arrived, completed did not within 2 s of the last"
                        : "no delivery for 2 s"
                    iteration.violation(.lost, "\(label): completed not delivered (\(what)); delivered per producer \(delivered) of \(events) each")
                } else if checker.deliveredPerProducer != [Int](repeating: events, count: producers) {
                    iteration.violation(.lost, "\(label): completed after \(checker.deliveredPerProducer) of \(events) events per producer")
                }
                subscription.dispose()
            case .inside, .block:
                // Let anything still queued have its chance to be (wrongly) delivered.
                _ = iteration.wait(upTo: 0.002) { false }
                subscription.dispose()
                if startedAfterDispose.load() > 0 {
                    iteration.violation(.afterDispose, "\(label): \(startedAfterDispose.load()) deliveries after dispose() returned")
                }
            case .thread:
                _ = iteration.wait(upTo: 0.002) { false }
                let late = startedAfterDispose.load()
                iteration.outcome(
                    late == 0 ? "thread: none after dispose" : late == 1 ? "thread: one in flight after dispose" : "thread: 2+ after dispose",
                    forbidden: late > 1 ? .afterDispose : nil)
            }
            if mode != .thread {
                iteration.outcome(mode == .none ? "none: all delivered" : "\(mode.rawValue): stopped at dispose")
            }
            checker.finish(label)
            if checker.stopCount > 1 { iteration.violation(.grammar, "\(label): \(checker.stopCount) stop events") }
            Self.quiesce(scheduler, iteration)
        }
        iteration.expectResources(back: baseline, "\(label) ended")
    }

    /// Waits for work still queued on `scheduler` (a block behind it has run).
    static func quiesce(_ scheduler: any ImmediateSchedulerType, _ iteration: StressIteration) {
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            done.signal()
            return Disposables.create()
        }
        _ = iteration.wait(done, upTo: 2)
    }
}
