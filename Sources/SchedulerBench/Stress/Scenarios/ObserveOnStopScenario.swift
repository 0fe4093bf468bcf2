import BenchModel
import Foundation
import RxSchedulers

/// `observeOn.stop`: `error` and `completed` racing `next` through observe(on:).
///
/// 2–4 producer threads send `next`s into an `Observable.create` observer, which forwards
/// concurrent calls as they come (its gate admits one stop event), so the operator itself
/// must serialize them and keep a `next` that raced the stop from following it; one or two of them end with a stop event at a random point (`error` or
/// `completed`) while the others still send. Checked:
/// - exactly one stop event arrives (`grammar` if two, `lost` if none has come 1 s after
///   the last delivery: an event stranded in the operator's queue when every next arrived;
///   deliveries that keep coming, however slowly, extend the wait up to a 60 s cap);
/// - it arrives last (`grammar`), deliveries never overlap (`overlap`), and per-producer
///   order holds (`reorder`, `duplicate`);
/// - `Resources.total` returns to its baseline (`leak`).
///
/// Outcomes: which stop won, and whether `next`s sent before it were cut off by it (legal:
/// the operator admits events in the order they reach it, not the order they were sent).
final class ObserveOnStopScenario: CataloguedStressScenario {
    static let name = StressScenarioName.observeOnStop
    static let summary =
        "observe(on:): error/completed racing next from concurrent producers: one stop event, last, no overlap"
    static let checks: [ViolationKind] = [.lost, .reorder, .overlap, .grammar, .leak, .hang, .crash]

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let target = random.pick(StressScheduler.allCases)
        let strategy = random.pick(ObserveOnStrategy.all)
        let producers = Int.random(in: 2...4, using: &random)
        let stoppers = Int.random(in: 1...2, using: &random)
        // Short streams half the time: more stream ends per second, where a stop event can be stranded.
        let events = random.chance(0.5) ? Int.random(in: 1...40, using: &random) : Int.random(in: 40...600, using: &random)
        let label = "\(target.rawValue)/\(strategy.name)"
        let baseline = Resources.total

        do {
            let scheduler = target.make()
            let checker = DeliveryChecker(producers: producers, iteration: iteration)
            let stopped = DispatchSemaphore(value: 0)
            let source = ObserverBox()
            let subscription = Observable<Int>.create { observer in
                source.observer = observer
                return Disposables.create()
            }
            .observe(on: scheduler, strategy: strategy)
            .subscribe(checker.observer(signallingStopOn: stopped))
            // The producers race on it by design: the core's observers serialize (Workload: the core's types and Sendable).
            nonisolated(unsafe) let observer = source.observer!
            let sent = SharedCounter()

            iteration.concurrently(producers, name: "observeOn.stop") { thread, random in
                let stopsAt = thread < stoppers ? Int.random(in: 0...events, using: &random) : nil
                for sequence in 0..<events {
                    if sequence == stopsAt { break }
                    if sequence & 63 == 0 { iteration.beat() }
                    observer.onNext(thread << 32 | sequence)
                    sent.increment()
                    if random.chance(1.0 / 128) { sched_yield() }
                }
                if stopsAt != nil {
                    if random.chance(0.5) { observer.onCompleted() } else { observer.onError(StressError()) }
                }
            }
            iteration.countOperations(producers * events)

            if let expiry = iteration.wait(stopped, quietFor: 1, progress: { checker.delivered }) {
                let delivered = checker.delivered
                let what =
                    expiry == .stillProgressing
                    ? "still delivering after \(Int(ProgressDeadline.defaultCapSeconds)) s"
                    : delivered == sent.load() ? "a stranded stop event: every next arrived, the stop did not within 1 s of the last"
                    : "no delivery for 1 s"
                iteration.violation(.lost, "\(label): no stop event (\(what); \(delivered) of \(sent.load()) nexts delivered)")
            } else {
                _ = iteration.wait(upTo: 0.001) { false }
                iteration.outcome(checker.firstStop == "completed" ? "completed won" : "error won")
                iteration.outcome(checker.delivered == sent.load() ? "every next before the stop" : "nexts cut off by the stop")
            }
            checker.finish(label)
            if checker.stopCount > 1 { iteration.violation(.grammar, "\(label): \(checker.stopCount) stop events: \(checker.allStops)") }
            subscription.dispose()
            source.observer = nil
            ObserveOnDisposeScenario.quiesce(scheduler, iteration)
        }
        iteration.expectResources(back: baseline, "\(label) stopped")
    }

    private final class ObserverBox: @unchecked Sendable {
        var observer: AnyObserver<Int>?
    }
}
