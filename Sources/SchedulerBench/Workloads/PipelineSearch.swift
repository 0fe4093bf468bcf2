import BenchModel
import Foundation
import RxSchedulers
import RxSchedulersCocoa
import Synchronization

/// `pipeline.search`: the search screen, written with `Driver` as RxSwift apps write it.
/// Keystrokes arrive on the main queue at `rate_hz` (each typed text repeats once, so
/// distinctUntilChanged has work), as the text field's driver (`asDriver`), and go through
/// throttle(20 ms) → distinctUntilChanged → flatMapLatest { request: 2 ms on the
/// background scheduler → observe(on: background) → map(parse) →
/// asDriver(onErrorJustReturn: no results) }, and two observers `drive` the results: the
/// list and a results-count label, sharing one subscription (the driver's
/// `share(replay: 1)`). The case's observe(on:) strategy is the background hop's; the hop
/// to the main queue is the driver's own (the default strategy).
/// As in the article, each request shows the spinner while it runs (`do(onSubscribe:)` /
/// `do(onDispose:)`, counted like RxSwift's ActivityIndicator); one query in five fails,
/// shows an empty list, and the search stays alive.
/// Latency: keystroke's intended time → results shown. Checks results never go back to
/// an older query (flatMapLatest), observer calls never overlap, the final query's results
/// arrive, a failed query shows an empty list and every other one its 20 results, every
/// request runs once whatever the number of observers, both observers see every result,
/// and every spinner shown is taken down once the search is disposed (superseded and
/// failed requests included).
struct PipelineSearch: Workload {
    let name = WorkloadName.pipelineSearch
    let summary =
        "Driver: throttle → distinctUntilChanged → flatMapLatest(2 ms request → observe(on: bg) → map → asDriver) → drive ×2; keystroke-to-results latency"
    let unsupportedReason = "needs a background scheduler that schedules in time (OperationQueueScheduler, as in RxSwift, cannot)"
    let axes: Set<Axis> = [.rate]
    let defaultEvents = 300
    let defaultRateHz = 100
    static let throttle = RxTimeInterval.milliseconds(20)
    static let requestLatency = RxTimeInterval.milliseconds(2)
    /// Every fifth distinct text fails (never the final one).
    static func fails(_ text: String, final finalText: String) -> Bool {
        text != finalText && Int(text.dropFirst("query ".count)).map { $0 % 5 == 3 } == true
    }

    struct RequestFailed: Error {}

    init() {}

    /// Every registered background scheduler that schedules in time (not the main queue's:
    /// the pipeline's own main scheduler is there), with the observe(on:) strategies.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isTimed && !scheduler.usesMainQueue && !scheduler.isVirtualTime ? Registry.observeOnStrategies(on: scheduler) : []
    }

    struct Query: Equatable {
        var text: String
        var index: Int
        var stamp: UInt64
        static func == (lhs: Query, rhs: Query) -> Bool { lhs.text == rhs.text }
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        guard benchCase.rateHz > 0 else { throw BenchError.caseCannotRun("pipeline.search needs a rate above 0 Hz") }
        let background = try Registry.current.requireScheduler(benchCase.scheduler).timedInstance()
        let strategy = try benchCase.strategy.requireObserveOnStrategy(for: name)
        let keystrokes = benchCase.events
        let interval = 1_000_000_000 / UInt64(benchCase.rateHz)
        let queries = PublishSubject<Query>()
        let shown = SearchResults(invariants: invariants, checking: checking)
        let lastShown = DispatchSemaphore(value: 0)
        let finishedAt = Atomic<UInt64>(0)
        let finalText = Self.text(forKeystroke: keystrokes - 1)
        let requests = SearchRequests(invariants: invariants)
        let labelCount = Atomic<Int>(0)

        // The text field's driver: its text arrives on the main queue.
        let results: Driver<(query: Query, results: [String])> =
            queries.asDriver(onErrorDriveWith: .empty())
            .throttle(Self.throttle)
            .distinctUntilChanged()
            .flatMapLatest { query in
                let fails = Self.fails(query.text, final: finalText)
                return Observable.just(query).delaySubscription(Self.requestLatency, scheduler: background)
                    .map { query -> Query in
                        if fails { throw RequestFailed() }
                        return query
                    }
                    .do(onSubscribe: { requests.started(query.text) }, onDispose: { requests.ended() })
                    .observe(on: background, strategy: strategy)
                    .map { query in (query, (0..<20).map { "\(query.text) result \($0)" }) }
                    .asDriver(onErrorJustReturn: (query, []))
            }
        // `drive` is called on the main thread, as it requires.
        let subscription = MainQueue.sync {
            let list = results.drive(onNext: { query, results in
                shown.show(query, resultCount: results.count, failed: Self.fails(query.text, final: finalText))
                if query.text == finalText {
                    finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                    lastShown.signal()
                }
            })
            let label = results.drive(onNext: { _ in labelCount.add(1, ordering: .relaxed) })
            return Disposables.create(list, label)
        }

        let typist = try ProducerThreads(count: 1, name: "schedbench.typist") { _ in
            let start = MonotonicClock.now()
            for index in 0..<keystrokes {
                let due = start + UInt64(index) * interval
                PacedWait.wait(until: due)
                let query = Query(text: Self.text(forKeystroke: index), index: index, stamp: due)
                DispatchQueue.main.async { queries.onNext(query) }
            }
        }
        let start = typist.start()
        let timeout = trialTimeout(events: keystrokes, nanosPerEvent: Double(interval) * 4)
        let completed = lastShown.wait(seconds: timeout, orReport: invariants, "results for the final query never shown")
        _ = typist.join(timeout: timeout)
        // The main-queue block that showed the final results also hands them to the label.
        DispatchQueue.main.sync {}
        subscription.dispose()
        DispatchQueue.main.sync {}
        if checking {
            requests.checkAllEnded()
            // The label subscribed second: it sees every result the list saw, from the same requests.
            if labelCount.load(ordering: .relaxed) != shown.count {
                invariants.record("the second subscriber saw \(labelCount.load(ordering: .relaxed)) results, the list \(shown.count)")
            }
        }
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

    func show(_ query: PipelineSearch.Query, resultCount: Int, failed: Bool) {
        overlap?.enter()
        defer { overlap?.leave() }
        latency.record(intended: query.stamp, completed: MonotonicClock.now())
        if overlap != nil {
            if query.index <= lastIndex {
                invariants.record("results for keystroke \(query.index) shown after those for keystroke \(lastIndex)")
            }
            if failed && resultCount != 0 {
                invariants.record("\(resultCount) results shown for '\(query.text)', whose request failed")
            } else if !failed && resultCount != 20 {
                invariants.record("\(resultCount) results parsed instead of 20")
            }
        }
        lastIndex = max(lastIndex, query.index)
        count += 1
    }
}

/// The requests the search made, as its spinner sees them: started on subscription, ended
/// on disposal (completed, superseded by a newer query, or failed and caught to never).
final class SearchRequests: Sendable {
    private let invariants: InvariantReport
    private let state = Locked((texts: Set<String>(), running: 0))

    init(invariants: InvariantReport) { self.invariants = invariants }

    func started(_ text: String) {
        state.withLock { state in
            state.running += 1
            if !state.texts.insert(text).inserted {
                invariants.record("the request for '\(text)' ran twice (shared by two subscribers, it must run once)")
            }
        }
    }

    func ended() {
        state.withLock { state in
            state.running -= 1
            if state.running < 0 { invariants.record("a spinner was taken down that was never shown") }
        }
    }

    /// After disposal: every spinner shown has been taken down.
    func checkAllEnded() {
        state.withLock { state in
            if state.running != 0 { invariants.record("\(state.running) spinner(s) still shown after the search was disposed") }
        }
    }
}
