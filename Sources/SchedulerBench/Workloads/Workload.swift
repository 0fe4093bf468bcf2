import BenchModel
/// What one trial of a case measured, before the runner adds process-wide metrics.
package struct TrialOutcome {
    /// Duration of the timed region only (setup and teardown excluded).
    package var elapsedNanos: UInt64
    /// Operations completed in the timed region: the denominator of `events_per_sec` and `ns_per_event`.
    package var operations: Int
    /// Latency distribution, for workloads that stamp events.
    package var latency: LatencyRecorder?
    /// Workload-specific metrics (ticks expected and delivered, tick lateness).
    package var metrics: [Metric: Double]

    package init(elapsedNanos: UInt64, operations: Int, latency: LatencyRecorder? = nil, metrics: [Metric: Double] = [:]) {
        self.elapsedNanos = elapsedNanos
        self.operations = operations
        self.latency = latency
        self.metrics = metrics
    }
}

/// The case axes a workload varies; the others are fixed at their neutral value.
package enum Axis: String, Sendable {
    case producers, payload, rate
}

/// A scenario the harness can measure. Each trial builds everything it uses (schedulers,
/// pipelines, threads) fresh and tears it down before returning, so trials are independent
/// and `Resources.total` can be checked for leaks after each.
///
/// Which schedulers a workload runs on is decided from what the registry says of each
/// (`strategies(on:)`), never from a list of names, so a scheduler registered by a user
/// runs in every workload that fits it.
///
/// The core's schedulers and subjects are made to be called from any thread (RxSwift's
/// contract), but the core is compiled in the Swift 5 language mode and does not declare
/// them `Sendable`. A workload hands one to its producer threads as a
/// `nonisolated(unsafe)` local, which says exactly that; everything else it shares across
/// threads is `Sendable` (atomics, mutex-guarded state).
package protocol Workload: Sendable {
    var name: WorkloadName { get }
    /// One line for `schedbench list`.
    var summary: String { get }
    /// The strategies it runs on `scheduler`, in listing order; empty when it does not run there.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName]
    /// Whether it also runs the registered hand-offs, on scheduler `none`.
    var runsHandOffs: Bool { get }
    /// Its own strategies on scheduler `none` (before the hand-offs, when it runs them).
    var strategiesOnNone: [StrategyName] { get }
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
    package var defaultRateHz: Int { 0 }
    package var runsHandOffs: Bool { false }
    package var strategiesOnNone: [StrategyName] { [] }
    package func skipReason(_ benchCase: BenchCase) -> String? { nil }

    /// The strategies it runs on the scheduler `name` names in `registry`: the hand-offs
    /// on `none` when it runs them; nothing on a name that is not registered.
    package func strategies(on name: SchedulerName, in registry: Registry = .current) -> [StrategyName] {
        if name == .none { return strategiesOnNone + (runsHandOffs ? registry.handOffs : []) }
        return registry.scheduler(name).map { strategies(on: $0) } ?? []
    }

    /// The schedulers it runs on, in listing order: the registered ones it fits, then
    /// `none` when it runs the hand-offs.
    package func schedulers(in registry: Registry = .current) -> [SchedulerName] {
        registry.schedulers.filter { !strategies(on: $0).isEmpty }.map(\.name) + (runsHandOffs || !strategiesOnNone.isEmpty ? [.none] : [])
    }

    /// The (scheduler, strategy) pairs this workload runs, in listing order.
    package func variants(in registry: Registry = .current) -> [(SchedulerName, StrategyName)] {
        schedulers(in: registry).flatMap { scheduler in strategies(on: scheduler, in: registry).map { (scheduler, $0) } }
    }

    /// The composite strategies it runs on the scheduler `name` names when a run names
    /// them (`Registry.composites(of:on:)`); no suite runs them unasked.
    package func composites(on name: SchedulerName, in registry: Registry = .current) -> [StrategyName] {
        guard let scheduler = registry.scheduler(name) else { return [] }
        return registry.composites(of: strategies(on: scheduler), on: scheduler)
    }

    /// The (scheduler, composite strategy) pairs it runs when asked, in listing order.
    package func compositeVariants(in registry: Registry = .current) -> [(SchedulerName, StrategyName)] {
        schedulers(in: registry).flatMap { scheduler in composites(on: scheduler, in: registry).map { (scheduler, $0) } }
    }
}

/// The registered workloads.
package enum Workloads {
    /// Every workload of this process's registry, in registration order.
    package static var all: [any Workload] { Registry.current.workloads }

    /// The workload registered as `name`; traps for a name that is not (names are checked
    /// against the registry where users type them).
    package static func named(_ name: WorkloadName) -> any Workload {
        guard let workload = Registry.current.workload(name) else { preconditionFailure("no workload is registered as '\(name.rawValue)'") }
        return workload
    }
}
