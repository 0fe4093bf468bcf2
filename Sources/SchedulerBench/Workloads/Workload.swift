/// What one trial of a case measured, before the runner adds process-wide metrics.
public struct TrialOutcome {
    /// Duration of the timed region only (setup and teardown excluded).
    public var elapsedNanos: UInt64
    /// Operations completed in the timed region: the denominator of `events_per_sec` and `ns_per_event`.
    public var operations: Int
    /// Latency distribution, for workloads that stamp events.
    public var latency: LatencyRecorder?
    /// Workload-specific metrics (ticks expected and delivered, tick lateness).
    public var metrics: [Metric: Double]

    public init(elapsedNanos: UInt64, operations: Int, latency: LatencyRecorder? = nil, metrics: [Metric: Double] = [:]) {
        self.elapsedNanos = elapsedNanos
        self.operations = operations
        self.latency = latency
        self.metrics = metrics
    }
}

/// The case axes a workload varies; the others are fixed at their neutral value.
public enum Axis: String, Sendable {
    case producers, payload, rate
}

/// A scenario the harness can measure. Each trial builds everything it uses (schedulers,
/// pipelines, threads) fresh and tears it down before returning, so trials are independent
/// and `Resources.total` can be checked for leaks after each.
public protocol Workload: Sendable {
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
    public var defaultRateHz: Int { 0 }
    public func skipReason(_ benchCase: BenchCase) -> String? { nil }

    /// The (scheduler, strategy) pairs this workload runs, in listing order.
    public var variants: [(SchedulerName, StrategyName)] {
        schedulers.flatMap { scheduler in strategies(on: scheduler).map { (scheduler, $0) } }
    }
}

/// Every workload, in `WorkloadName` order.
public enum Workloads {
    public static let all: [any Workload] = [
        ScheduleThroughput(),
        ObserveOnThroughput(),
        ObserveOnLatency(),
        SubscribeOnCycle(),
        TrampolineNested(),
        MainInline(),
        MainFlood(),
        PeriodicCatchUp(),
        PipelineSearch(),
        PipelineLoading(),
    ]

    public static func named(_ name: WorkloadName) -> any Workload {
        all.first { $0.name == name }!
    }
}

/// A trial that could not run at all (distinct from an invariant violation, which is measured and reported).
public struct WorkloadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
