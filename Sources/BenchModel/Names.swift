/// The stable names users type on the command line and find in CSV files.
/// Renaming a case breaks stored results and CI baselines: add, never rename.
///
/// Each name carries its one-line description (what `schedbench list` prints) and, for
/// schedulers and strategies, its mapping to the core's types (`SchedulerName.swift`,
/// `StrategyName.swift`), so that a name is defined in exactly one place.

/// Names sort in the order they are declared (the order `list` and tables use).
package protocol DeclarationOrdered: CaseIterable, Comparable where AllCases: Collection {}

extension DeclarationOrdered {
    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a case measures; `Workloads.named(_:)` gives the workload itself, whose `summary`
/// describes it.
package enum WorkloadName: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, DeclarationOrdered {
    case scheduleThroughput = "schedule.throughput"
    case observeOnThroughput = "observeOn.throughput"
    case observeOnLatency = "observeOn.latency"
    case subscribeOnCycle = "subscribeOn.cycle"
    case trampolineNested = "trampoline.nested"
    case mainInline = "main.inline"
    case mainFlood = "main.flood"
    case mainMixed = "main.mixed"
    case periodicCatchUp = "periodic.catchUp"
    case pipelineSearch = "pipeline.search"
    case pipelineLoading = "pipeline.loading"
}
