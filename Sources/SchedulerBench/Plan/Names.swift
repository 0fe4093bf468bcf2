/// The stable names users type on the command line and find in CSV files.
/// Renaming a case breaks stored results and CI baselines: add, never rename.

/// Names sort in the order they are declared (the order `list` and tables use).
public protocol DeclarationOrdered: CaseIterable, Comparable where AllCases: Collection {}

extension DeclarationOrdered {
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a case measures (DESIGN.md §4).
public enum WorkloadName: String, CaseIterable, Sendable, DeclarationOrdered {
    case scheduleThroughput = "schedule.throughput"
    case observeOnThroughput = "observeOn.throughput"
    case observeOnLatency = "observeOn.latency"
    case subscribeOnCycle = "subscribeOn.cycle"
    case trampolineNested = "trampoline.nested"
    case mainInline = "main.inline"
    case mainFlood = "main.flood"
    case periodicCatchUp = "periodic.catchUp"
    case pipelineSearch = "pipeline.search"
    case pipelineLoading = "pipeline.loading"
}

/// Which scheduler a case runs on. `none` marks the context baselines, which use no Rx scheduler.
public enum SchedulerName: String, CaseIterable, Sendable, DeclarationOrdered {
    case currentThread, main, mainAsync, serial, concurrent, concurrentMain, operationQueue, virtual, none
}

/// Which algorithm a case uses where the core offers more than one.
public enum StrategyName: String, CaseIterable, Sendable, DeclarationOrdered {
    /// observe(on:): RxSwift's algorithms.
    case reference
    /// observe(on:): the tuned MPSC queue + work-in-progress drain.
    case drain
    /// Periodic policies (`PeriodicPolicy`).
    case catchUp, coalesce, fixedRate
    /// MainScheduler dispatch (`MainScheduler.Dispatch`).
    case batched, perAction
    /// Context baselines: raw `DispatchQueue.async` per event, and an `AsyncStream` consumed by a Task.
    case gcd, asyncStream
    /// The workload has a single algorithm.
    case none

    /// The context baselines run without an Rx scheduler (scheduler `none`).
    public var isBaseline: Bool { self == .gcd || self == .asyncStream }
}
