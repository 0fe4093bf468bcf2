import BenchModel
/// What one trial of a case measured, before the runner adds process-wide metrics.
struct TrialOutcome {
    /// Duration of the timed region only (setup and teardown excluded).
    var elapsedNanos: UInt64
    /// Operations completed in the timed region: the denominator of `events_per_sec` and `ns_per_event`.
    var operations: Int
    /// Latency distribution, for workloads that stamp events.
    var latency: LatencyRecorder?
    /// Workload-specific metrics (ticks expected and delivered, tick lateness).
    var metrics: [Metric: Double]

    init(elapsedNanos: UInt64, operations: Int, latency: LatencyRecorder? = nil, metrics: [Metric: Double] = [:]) {
        self.elapsedNanos = elapsedNanos
        self.operations = operations
        self.latency = latency
        self.metrics = metrics
    }
}

/// The case axes a workload varies; the others are fixed at their neutral value.
enum Axis: String, Sendable {
    case producers, payload, rate
}

/// A scenario the harness can measure. Each trial builds everything it uses (schedulers,
/// pipelines, threads) fresh and tears it down before returning, so trials are independent
/// and `Resources.total` can be checked for leaks after each.
///
/// The core's schedulers and subjects are made to be called from any thread (RxSwift's
/// contract), but the core is compiled in the Swift 5 language mode and does not declare
/// them `Sendable`. A workload hands one to its producer threads as a
/// `nonisolated(unsafe)` local, which says exactly that; everything else it shares across
/// threads is `Sendable` (atomics, mutex-guarded state).
protocol Workload: Sendable {
    var name: WorkloadName { get }
    /// One line for `schedbench list`.
    var summary: String { get }
    /// The schedulers it runs on, in listing order.
    var schedulers: [SchedulerName] { get }
    /// The strategies that apply on `scheduler`.
    func strategies(on scheduler: SchedulerName) -> [StrategyName]
    /// Why a scheduler is not offered (for `--dry-run` and `list`).
    var unsupportedReason: String { get }
    var axes: Set<Axis> { get }
    var defaultEvents: Int { get }
    /// Default pacing, for workloads with the rate axis.
    var defaultRateHz: Int { get }
    /// Runs one trial. Invariant violations go to `invariants`; `checking == false` runs the
    /// same case with the checkers switched off (to measure the harness's own overhead).
    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome
    /// Why this particular combination cannot run, or nil when it can.
    func skipReason(_ benchCase: BenchCase) -> String?
}

extension Workload {
    var defaultRateHz: Int { 0 }
    func skipReason(_ benchCase: BenchCase) -> String? { nil }

    /// The (scheduler, strategy) pairs this workload runs, in listing order.
    var variants: [(SchedulerName, StrategyName)] {
        schedulers.flatMap { scheduler in strategies(on: scheduler).map { (scheduler, $0) } }
    }
}

/// Every workload, in `WorkloadName` order.
package enum Workloads {
    static let all: [any Workload] = [
        ScheduleThroughput(),
        ObserveOnThroughput(),
        ObserveOnLatency(),
        SubscribeOnCycle(),
        TrampolineNested(),
        MainInline(),
        MainFlood(),
        MainMixed(),
        PeriodicCatchUp(),
        PipelineSearch(),
        PipelineLoading(),
    ]

    static func named(_ name: WorkloadName) -> any Workload {
        all.first { $0.name == name }!
    }
}

/// What `schedbench list` and a program embedding the engine may know of a workload
/// without running it.
package struct WorkloadDescription: Sendable {
    package var name: WorkloadName
    /// One line: what a trial does and what it measures.
    package var summary: String
    /// The (scheduler, strategy) pairs it runs, in listing order.
    package var variants: [(scheduler: SchedulerName, strategy: StrategyName)]
    /// Why the other schedulers are not offered.
    package var unsupportedReason: String
    /// The axes it varies (`producers`, `payload`, `rate`); the others stay neutral.
    package var axes: [String]
    package var defaultEvents: Int
    /// Default pacing in Hz, for workloads with the rate axis (0 otherwise).
    package var defaultRateHz: Int
}

extension Workloads {
    /// Every workload's description, in `WorkloadName` order.
    package static var descriptions: [WorkloadDescription] {
        all.map { workload in
            WorkloadDescription(
                name: workload.name, summary: workload.summary,
                variants: workload.variants.map { (scheduler: $0.0, strategy: $0.1) },
                unsupportedReason: workload.unsupportedReason,
                axes: ["producers", "payload", "rate"].filter { workload.axes.contains(Axis(rawValue: $0)!) },
                defaultEvents: workload.defaultEvents, defaultRateHz: workload.defaultRateHz
            )
        }
    }
}
