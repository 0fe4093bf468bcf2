import BenchModel
import Foundation
import RxSchedulers

/// `subscribe.storm`: many threads subscribe to and dispose random pipelines at once.
///
/// 2–5 threads each build 4–24 pipelines from a menu (`subscribe(on:)`, `observe(on:)`,
/// `merge` of sources emitting on different threads, `flatMapLatest`, `amb`, `concat`,
/// `share`, `share` joined late from another thread, `throttle`, `interval`, an endless `interval` subscribed on another scheduler) on random schedulers, subscribe, and dispose at a
/// random moment: at once (racing the subscription itself), after a random pause, from
/// another thread, or after the pipeline completed. Checked, per pipeline: one observer
/// call at a time (`overlap`), the grammar (`grammar`) and per-source order where the
/// pipeline promises it (`reorder`: `share(replay: 1)` must replay to its racing second
/// subscriber before that one sees a newer element); and, once every thread is done, `Resources.total` back to its
/// baseline within 2 s (`leak`: a subscription disposal lost in a race keeps a timer or a
/// sink alive). A crash is caught by the parent process.
final class SubscribeStormScenario: CataloguedStressScenario {
    static let name = StressScenarioName.subscribeStorm
    static let summary =
        "threads subscribe and dispose random pipelines at once: no crash, no leak, grammar and serialization kept"
    static let checks: [ViolationKind] = [.overlap, .grammar, .reorder, .leak, .hang, .crash]

    enum Pipeline: String, CaseIterable {
        case subscribeOn, observeOn, merge, flatMapLatest, amb, concat, share, shareLate, throttle, interval, endlessInterval
    }

    enum Disposal: String, CaseIterable { case immediately, afterPause, fromAnotherThread, afterCompletion }

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let threads = Int.random(in: 2...5, using: &random)
        let perThread = Int.random(in: 4...24, using: &random)
        let baseline = Resources.total
        let schedulers: [StressScheduler] = [.serial, .concurrent, .operationQueue, .main]

        iteration.concurrently(threads, name: "storm") { _, random in
            for _ in 0..<perThread {
                iteration.beat()
                let pipeline = random.pick(Pipeline.allCases)
                let scheduler = random.pick(schedulers).make()
                let disposal = random.pick(Disposal.allCases)
                let events = Int.random(in: 1...200, using: &random)
                let (observable, checker) = Self.build(pipeline, on: scheduler, events: events, iteration)
                let completed = DispatchSemaphore(value: 0)
                // Disposed from another thread by design (Workload: the core's types and Sendable).
                nonisolated(unsafe) let subscription = observable.subscribe(
                    AnyObserver { event in
                        checker.enter()
                        defer { checker.leave() }
                        checker.check(event)
                        if event.isStopEvent { completed.signal() }
                    })
                switch disposal {
                case .immediately:
                    subscription.dispose()
                case .afterPause:
                    for _ in 0..<Int.random(in: 0...200, using: &random) { sched_yield() }
                    subscription.dispose()
                case .fromAnotherThread:
                    DispatchQueue.global().async { subscription.dispose() }
                case .afterCompletion where pipeline == .endlessInterval:
                    _ = iteration.wait(upTo: 0.003) { false }
                    subscription.dispose()
                case .afterCompletion:
                    if !iteration.wait(completed, upTo: 1) {
                        iteration.outcome("\(pipeline.rawValue): not completed within 1 s")
                    }
                    subscription.dispose()
                }
                iteration.outcome("\(pipeline.rawValue), disposed \(disposal.rawValue)")
                iteration.countOperations(1)
                checker.finish(pipeline.rawValue)
                if checker.stopCount > 1 { iteration.violation(.grammar, "\(pipeline.rawValue): \(checker.stopCount) stop events") }
            }
        }
        iteration.expectResources(back: baseline, "\(threads) threads × \(perThread) pipelines were disposed")
    }

    /// A source of `events` elements of producer `id`, emitted synchronously when subscribed.
    static func source(_ id: Int, _ events: Int) -> Observable<Int> {
        Observable<Int>.create { observer in
            for sequence in 0..<events { observer.onNext(id << 32 | sequence) }
            observer.onCompleted()
            return Disposables.create()
        }
    }

    static func build(
        _ pipeline: Pipeline, on scheduler: any ImmediateSchedulerType, events: Int, _ iteration: StressIteration
    ) -> (Observable<Int>, DeliveryChecker) {
        let concurrent = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        // OperationQueueScheduler schedules nothing in time: timed operators use the concurrent one there.
        let timed = scheduler as? any SchedulerType ?? concurrent
        switch pipeline {
        case .subscribeOn:
            return (source(0, events).subscribe(on: scheduler), DeliveryChecker(producers: 1, iteration: iteration))
        case .observeOn:
            return (source(0, events).observe(on: scheduler), DeliveryChecker(producers: 1, iteration: iteration))
        case .merge:
            let inner = (0..<3).map { source($0, events).subscribe(on: concurrent) }
            return (Observable.merge(inner[0], inner[1], inner[2]), DeliveryChecker(producers: 3, iteration: iteration))
        case .flatMapLatest:
            let outer = Observable.from([0, 1, 2]).subscribe(on: scheduler)
            return (
                outer.flatMapLatest { source($0, events).subscribe(on: concurrent) },
                DeliveryChecker(producers: 3, iteration: iteration, order: .increasing)
            )
        case .amb:
            let sources = (0..<2).map { source($0, events).subscribe(on: concurrent) }
            return (Observable.amb(sources), DeliveryChecker(producers: 2, iteration: iteration))
        case .concat:
            return (
                Observable.concat(source(0, events).observe(on: scheduler), source(1, events).subscribe(on: concurrent)),
                DeliveryChecker(producers: 2, iteration: iteration)
            )
        case .share:
            let shared = source(0, events).subscribe(on: scheduler).share(replay: 1)
            // A second subscriber races the first for the shared connection.
            return (
                Observable.merge(shared, shared.map { 1 << 32 | ($0 & 0xFFFF_FFFF) }),
                DeliveryChecker(producers: 2, iteration: iteration, order: .increasing)
            )
        case .shareLate:
            let shared = source(0, events).subscribe(on: scheduler).share(replay: 1)
            // The second subscriber joins from another thread while the source emits: its
            // replay races the live elements, and must still come first.
            return (
                Observable.merge(shared, shared.subscribe(on: concurrent).map { 1 << 32 | ($0 & 0xFFFF_FFFF) }),
                DeliveryChecker(producers: 2, iteration: iteration, order: .increasing)
            )
        case .throttle:
            return (
                source(0, events).subscribe(on: concurrent).throttle(.microseconds(200), scheduler: timed),
                DeliveryChecker(producers: 1, iteration: iteration, order: .increasing)
            )
        case .interval:
            return (
                Observable<Int>.interval(.milliseconds(1), scheduler: timed).take(min(events, 5)), DeliveryChecker(producers: 1, iteration: iteration)
            )
        case .endlessInterval:
            // Never completes: only its disposal, raced by subscribe(on:), stops its timer.
            return (
                Observable<Int>.interval(.milliseconds(1), scheduler: concurrent).subscribe(on: scheduler),
                DeliveryChecker(producers: 1, iteration: iteration)
            )
        }
    }
}
