import Foundation
import RxSchedulers
import Synchronization

/// `pipeline.search`: the search screen. Keystrokes arrive on the main queue at `rate_hz`
/// (each typed text repeats once, so distinctUntilChanged has work) and go through
/// throttle(20 ms, main) → distinctUntilChanged → flatMapLatest(request: 2 ms on the
/// background scheduler) → observe(on: background) → map(parse) → observe(on: main).
/// Latency: keystroke's intended time → results shown. Checks results never go back to
/// an older query (flatMapLatest), observer calls never overlap, and the final query's
/// results arrive.
struct PipelineSearch: Workload {
    let name = WorkloadName.pipelineSearch
    let summary =
        "throttle → distinctUntilChanged → flatMapLatest(2 ms request) → observe(on: bg) → map → observe(on: main); keystroke-to-results latency"
    let schedulers: [SchedulerName] = [.serial, .concurrent]
    let unsupportedReason = "needs a background scheduler that schedules in time (OperationQueueScheduler, as in RxSwift, cannot)"
    let axes: Set<Axis> = [.rate]
    let defaultEvents = 300
    let defaultRateHz = 100
    static let throttle = RxTimeInterval.milliseconds(20)
    static let requestLatency = RxTimeInterval.milliseconds(2)

    init() {}

    func strategies(on scheduler: SchedulerName) -> [StrategyName] { StrategyName.observeOnStrategies(on: scheduler) }

    struct Query: Equatable {
        var text: String
        var index: Int
        var stamp: UInt64
        static func == (lhs: Query, rhs: Query) -> Bool { lhs.text == rhs.text }
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        guard benchCase.rateHz > 0 else { throw BenchError.caseCannotRun("pipeline.search needs a rate above 0 Hz") }
        let background = benchCase.scheduler.makeTimed()
        let main = MainScheduler()
        let strategy = try benchCase.strategy.requireObserveOnStrategy(for: name)
        let keystrokes = benchCase.events
        let interval = 1_000_000_000 / UInt64(benchCase.rateHz)
        let queries = PublishSubject<Query>()
        let shown = SearchResults(invariants: invariants, checking: checking)
        let lastShown = DispatchSemaphore(value: 0)
        let finishedAt = Atomic<UInt64>(0)
        let finalText = Self.text(forKeystroke: keystrokes - 1)

        let subscription =
            queries
            .throttle(Self.throttle, scheduler: main)
            .distinctUntilChanged()
            .flatMapLatest { query in
                Observable.just(query).delaySubscription(Self.requestLatency, scheduler: background)
            }
            .observe(on: background, strategy: strategy)
            .map { query in (query, (0..<20).map { "\(query.text) result \($0)" }) }
            .observe(on: main, strategy: strategy)
            .subscribe(onNext: { query, results in
                shown.show(query, resultCount: results.count)
                if query.text == finalText {
                    finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                    lastShown.signal()
                }
            })

        let typist = try ProducerThreads(count: 1, name: "schedbench.typist") { _ in
            let start = MonotonicClock.now()
            for index in 0..<keystrokes {
                let due = start + UInt64(index) * interval
                MonotonicClock.wait(until: due)
                let query = Query(text: Self.text(forKeystroke: index), index: index, stamp: due)
                DispatchQueue.main.async { queries.onNext(query) }
            }
        }
        let start = typist.start()
        let timeout = trialTimeout(events: keystrokes, nanosPerEvent: Double(interval) * 4)
        let completed = lastShown.wait(seconds: timeout, orReport: invariants, "results for the final query never shown")
        _ = typist.join(timeout: timeout)
        subscription.dispose()
        DispatchQueue.main.sync {}
        let end = completed ? finishedAt.load(ordering: .relaxed) : MonotonicClock.now()
        return TrialOutcome(elapsedNanos: end - start, operations: shown.count, latency: shown.latency)
    }

    /// Keystrokes 2k and 2k+1 type the same text.
    static func text(forKeystroke index: Int) -> String { "query \(index / 2)" }
}

/// The screen's state, touched on the main queue only.
final class SearchResults: @unchecked Sendable {
    private let overlap: OverlapDetector?
    private let invariants: InvariantReport
    private var lastIndex = -1
    private(set) var count = 0
    private(set) var latency = LatencyRecorder()

    init(invariants: InvariantReport, checking: Bool) {
        self.invariants = invariants
        overlap = checking ? OverlapDetector(report: invariants) : nil
    }

    func show(_ query: PipelineSearch.Query, resultCount: Int) {
        overlap?.enter()
        defer { overlap?.leave() }
        latency.record(intended: query.stamp, completed: MonotonicClock.now())
        if overlap != nil {
            if query.index <= lastIndex {
                invariants.record("results for keystroke \(query.index) shown after those for keystroke \(lastIndex)")
            }
            if resultCount != 20 { invariants.record("\(resultCount) results parsed instead of 20") }
        }
        lastIndex = max(lastIndex, query.index)
        count += 1
    }
}
