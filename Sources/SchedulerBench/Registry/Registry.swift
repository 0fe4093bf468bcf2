import BenchModel
import Foundation
import RxSchedulers

/// Everything a SchedulerBench executable can measure: its schedulers, strategies,
/// hand-offs and workloads, each under a stable name with a one-line summary.
///
/// The built-ins are registered through this same API (`Registry.builtIns`); an executable
/// of a user's package adds its own in `SchedulerBenchCommand.register(in:)`. Names are what
/// results files, histories and the command line use, so a name must be stable and unique:
/// registering a name twice, or one that is not a name, ends the process at startup with
/// exit status 1 and a message naming it, in every build.
///
/// Registration order is listing order: `list`, `--dry-run` and the tables show the
/// built-ins first, then the user's entries in the order they were registered.
public struct Registry: Sendable {
    package private(set) var schedulers: [RegisteredScheduler] = []
    package private(set) var strategies: [RegisteredStrategy] = []
    package private(set) var workloads: [any Workload] = []

    /// An empty registry (no built-ins); `Registry.builtIns` holds the built-ins.
    package init() {}

    // MARK: Registering

    /// Registers a scheduler: `make` builds a fresh instance for each trial (or hands out a
    /// shared one, if the scheduler is process-wide by design). It runs in every workload
    /// that fits it: `schedule.throughput`, `observeOn.throughput` and `observeOn.latency`
    /// with the observe(on:) strategies, `subscribeOn.cycle`, and, when its instances are
    /// `SchedulerType`s, `periodic.catchUp`, `pipeline.search` and `pipeline.loading`.
    /// `make` is also called once, outside any timed region, to learn whether its instances
    /// schedule in time.
    ///
    /// - Parameters:
    ///   - name: the stable name (`--scheduler NAME`, the `scheduler` column).
    ///   - summary: one line for `schedbench list`.
    ///   - contracts: what it promises beyond `ImmediateSchedulerType`'s contract; the
    ///     workloads and `schedbench stress --scheduler` check it.
    ///   - inQuickSuite: whether the `quick` suite runs it too (the `default` and `full`
    ///     suites always do, and any run that names it).
    ///   - make: a fresh instance of the scheduler; each trial calls it once.
    public mutating func scheduler(
        _ name: String, summary: String, contracts: SchedulerContracts = [], inQuickSuite: Bool = true,
        make: @escaping @Sendable () -> any ImmediateSchedulerType
    ) {
        var scheduler = RegisteredScheduler(name: SchedulerName(name), summary: summary, contracts: contracts) { _ in make() }
        scheduler.inQuickSuite = inQuickSuite
        add(scheduler)
    }

    /// Registers a hand-off: a framework's way of moving items from producer threads to one
    /// serial consumer (see `HandOff`), for what is not an Rx scheduler. The
    /// `observeOn.throughput` and `observeOn.latency` workloads run it as a strategy of
    /// scheduler `none`, with the same producers, items, checks and metrics as observe(on:).
    ///
    /// - Parameters:
    ///   - name: the stable name (`--strategy NAME`, the `strategy` column).
    ///   - summary: one line for `schedbench list`.
    ///   - inQuickSuite: whether the `quick` suite runs it too (the `default` and `full`
    ///     suites always do, and any run that names it).
    ///   - make: starts the consumer for one trial; it must call `deliver` as `HandOff` says.
    public mutating func handOff(
        _ name: String, summary: String, inQuickSuite: Bool = true,
        make: @escaping @Sendable (_ deliver: @escaping @Sendable (Item) -> Void) -> any HandOff
    ) {
        add(RegisteredStrategy(name: StrategyName(name), axis: .peer, summary: summary, inQuickSuite: inQuickSuite, makeHandOff: make))
    }

    /// Registers a workload written against `WorkloadTrial`: it runs on every registered
    /// scheduler that makes all of `requires`' promises (never on scheduler `none`).
    ///
    /// - Parameters:
    ///   - name: the stable name (`--workload NAME`, the `workload` column).
    ///   - summary: one line for `schedbench list`: what a trial does and measures.
    ///   - requires: the contracts a scheduler must claim for the workload to run on it.
    ///   - axes: the case axes it varies (others stay at 1 producer, 0 bytes, 0 Hz).
    ///   - defaultEvents: events per trial when a suite or `--events` does not say.
    ///   - defaultRateHz: pacing when the workload has the `rate` axis and nothing says.
    ///   - trial: runs one trial; called on a thread of its own, never concurrently with
    ///     another trial of the same process.
    public mutating func workload(
        _ name: String, summary: String, requires: SchedulerContracts = [], axes: WorkloadAxes = [],
        defaultEvents: Int = 10_000, defaultRateHz: Int = 0,
        trial: @escaping @Sendable (WorkloadTrial) throws -> TrialMeasurement
    ) {
        add(
            CustomWorkload(
                name: WorkloadName(name), summary: summary, requires: requires, declaredAxes: axes,
                defaultEvents: defaultEvents, defaultRateHz: defaultRateHz, body: trial))
    }

    // MARK: Registering (the built-ins' richer forms)

    package mutating func add(_ scheduler: RegisteredScheduler) {
        Self.refuse(problem(registering: scheduler.name.rawValue, as: "scheduler"))
        schedulers.append(scheduler)
    }

    package mutating func add(_ strategy: RegisteredStrategy) {
        Self.refuse(problem(registering: strategy.name.rawValue, as: "strategy"))
        strategies.append(strategy)
    }

    package mutating func add(_ workload: any Workload) {
        Self.refuse(problem(registering: workload.name.rawValue, as: "workload"))
        workloads.append(workload)
    }

    /// Why `name` cannot be registered as a `kind` ("scheduler", "strategy", "workload"):
    /// not a name results files and command lines can hold, reserved, or taken; nil when
    /// it can.
    package func problem(registering name: String, as kind: String) -> String? {
        if let problem = NameRules.problem(with: name) { return "cannot register \(kind) '\(name)': the name \(problem)" }
        let taken: Bool
        switch kind {
        case "scheduler":
            if name == SchedulerName.none.rawValue { return "cannot register scheduler 'none': the name is reserved (the hand-offs' scheduler)" }
            taken = schedulers.contains { $0.name.rawValue == name }
        case "strategy": taken = strategies.contains { $0.name.rawValue == name }
        default: taken = workloads.contains { $0.name.rawValue == name }
        }
        return taken ? "cannot register \(kind) '\(name)': it is registered already" : nil
    }

    /// Ends the process with exit status 1 and `problem` on standard error, when there is
    /// one. Not a precondition: an optimized build would trap without the message.
    private static func refuse(_ problem: String?) {
        guard let problem else { return }
        FileHandle.standardError.write(Data("error: \(problem)\n".utf8))
        exit(1)
    }

    // MARK: Looking up

    package func scheduler(_ name: SchedulerName) -> RegisteredScheduler? { schedulers.first { $0.name == name } }
    package func strategy(_ name: StrategyName) -> RegisteredStrategy? { strategies.first { $0.name == name } }
    package func workload(_ name: WorkloadName) -> (any Workload)? { workloads.first { $0.name == name } }

    /// The hand-off strategies, in registration order: what the observe(on:) workloads
    /// offer on scheduler `none`.
    package var handOffs: [StrategyName] { strategies.filter { $0.makeHandOff != nil }.map(\.name) }

    /// The observe(on:) strategies a workload offers on `scheduler`: `referenceGeneric` only
    /// where it differs from `reference`, on the serial dispatch schedulers.
    package static func observeOnStrategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isSerialDispatch ? [.reference, .referenceGeneric, .drain] : [.reference, .drain]
    }

    /// The composite strategies offered on `scheduler` besides `offered` (a workload's
    /// strategies there), when a run names them: each observe(on:) strategy and periodic
    /// policy of `offered` over each dispatch mode of the scheduler other than the one it
    /// gets under its plain name (`StrategyName.dispatch`: per-action for RxSwift's
    /// observe(on:) algorithms, the scheduler's default for the others). Empty on a
    /// scheduler with one dispatch mode.
    package func composites(of offered: [StrategyName], on scheduler: RegisteredScheduler) -> [StrategyName] {
        offered.flatMap { primary -> [StrategyName] in
            guard let plain = plainDispatch(of: primary, on: scheduler) else { return [] }
            return scheduler.dispatchModes.filter { $0 != plain }.map { StrategyName(primary, over: $0) }
        }
    }

    /// `strategy` as a case on `scheduler` is named: a composite whose dispatch is the one
    /// its primary gets anyway there is the primary (`drain+perAction` on `serial` is
    /// `drain`), so one case has one name.
    package func canonical(_ strategy: StrategyName, on scheduler: RegisteredScheduler) -> StrategyName {
        guard let part = strategy.dispatchPart, plainDispatch(of: strategy.primary, on: scheduler) == part else { return strategy }
        return strategy.primary
    }

    /// The dispatch mode `primary` (an observe(on:) strategy or periodic policy) runs over
    /// on `scheduler` under its plain name; nil when it selects no dispatch there.
    private func plainDispatch(of primary: StrategyName, on scheduler: RegisteredScheduler) -> StrategyName? {
        guard let axis = strategy(primary)?.axis, axis == .observeOn || axis == .periodic, let fallback = scheduler.dispatchModes.first else {
            return nil
        }
        return primary.dispatch.map { StrategyName($0.rawValue) } ?? fallback
    }

    /// Whether `name` is a composite this registry can make: a registered observe(on:)
    /// strategy or periodic policy, then a registered dispatch.
    package func isComposite(_ name: StrategyName) -> Bool {
        guard let part = name.dispatchPart, let axis = strategy(name.primary)?.axis else { return false }
        return (axis == .observeOn || axis == .periodic) && strategy(part)?.axis == .dispatch
    }

    /// Starts the hand-off `strategy` names for one trial, or nil when it names none (an
    /// observe(on:) strategy, a composite). An unregistered name is an error.
    package func startHandOff(_ strategy: StrategyName, deliver: @escaping @Sendable (Item) -> Void) throws -> (any HandOff)? {
        guard let registered = self.strategy(strategy.primary) else {
            throw BenchError.caseCannotRun("no strategy is registered as '\(strategy.rawValue)'")
        }
        return registered.makeHandOff?(deliver)
    }

    /// The registered scheduler `name` names, or an error naming the ones that exist.
    package func requireScheduler(_ name: SchedulerName) throws -> RegisteredScheduler {
        guard let scheduler = scheduler(name) else {
            throw BenchError.caseCannotRun(
                "no scheduler is registered as '\(name.rawValue)'; registered: \(schedulers.map(\.name.rawValue).joined(separator: ", "))")
        }
        return scheduler
    }

    // MARK: The process's registry

    private static let installed = Locked<Registry?>(nil)

    /// The registry of this process: what `install` set (a SchedulerBench executable sets it
    /// before it parses its command line, so its child processes see the same entries), or
    /// the built-ins alone.
    package static var current: Registry { installed.withLock { $0 } ?? builtIns }

    /// Makes `registry` this process's registry.
    package static func install(_ registry: Registry) { installed.withLock { $0 = registry } }
}
