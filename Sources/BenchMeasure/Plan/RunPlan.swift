import BenchModel
/// What the user asked for: a suite, optionally narrowed or resized from the command line.
/// `expand()` turns it into the cases to run and the combinations it skipped, with why.
package struct RunPlan: Sendable {
    package var suite: Suite
    package var workloads: [WorkloadName]?
    package var schedulers: [SchedulerName]?
    package var strategies: [StrategyName]?
    package var producers: [Int]?
    package var events: Int?
    package var payloads: [Int]?
    package var rates: [Int]?

    package init(
        suite: Suite, workloads: [WorkloadName]? = nil, schedulers: [SchedulerName]? = nil,
        strategies: [StrategyName]? = nil, producers: [Int]? = nil, events: Int? = nil,
        payloads: [Int]? = nil, rates: [Int]? = nil
    ) {
        self.suite = suite
        self.workloads = workloads
        self.schedulers = schedulers
        self.strategies = strategies
        self.producers = producers
        self.events = events
        self.payloads = payloads
        self.rates = rates
    }

    package struct Skip: Sendable, CustomStringConvertible {
        package var what: String
        package var reason: String
        package var description: String { "\(what): \(reason)" }
    }

    /// The cases of the plan over `registry`'s entries.
    package func expand(in registry: Registry = .current) -> (cases: [BenchCase], skipped: [Skip]) {
        var cases: [BenchCase] = []
        var skipped: [Skip] = []
        var seen = Set<BenchCase>()
        var entries = suite.entries
        // A workload asked for by name that the suite lacks runs at its defaults.
        for name in workloads ?? [] where !entries.contains(where: { $0.workload == name }) {
            entries.append(Suite.Entry(workload: name))
        }
        for entry in entries where workloads?.contains(entry.workload) ?? true {
            guard let workload = registry.workload(entry.workload) else {
                skipped.append(Skip(what: entry.workload.rawValue, reason: "no workload is registered under this name"))
                continue
            }
            let runsOn = workload.schedulers(in: registry)
            let unnamed = suite.quickEntriesOnly ? runsOn.filter { registry.scheduler($0)?.inQuickSuite ?? true } : runsOn
            for scheduler in schedulers ?? entry.schedulers ?? unnamed {
                guard runsOn.contains(scheduler) else {
                    if schedulers != nil {
                        skipped.append(Skip(what: "\(workload.name.rawValue) on \(scheduler.rawValue)", reason: workload.unsupportedReason))
                    }
                    continue
                }
                let offered = workload.strategies(on: scheduler, in: registry)
                let offeredUnnamed = suite.quickEntriesOnly ? offered.filter { registry.strategy($0)?.inQuickSuite ?? true } : offered
                for strategy in strategies ?? entry.strategies ?? offeredUnnamed {
                    guard offered.contains(strategy) else {
                        if strategies != nil {
                            let valid = offered.map(\.rawValue).joined(separator: ", ")
                            skipped.append(
                                Skip(
                                    what: "\(workload.name.rawValue) on \(scheduler.rawValue) with \(strategy.rawValue)",
                                    reason: "strategies there: \(valid)"))
                        }
                        continue
                    }
                    let producerAxis = workload.axes.contains(.producers) ? (producers ?? entry.producers) : [1]
                    let payloadAxis = workload.axes.contains(.payload) ? (payloads ?? entry.payloads) : [0]
                    let rateAxis = workload.axes.contains(.rate) ? (rates ?? entry.rates ?? [workload.defaultRateHz]) : [0]
                    for producerCount in producerAxis {
                        for payload in payloadAxis {
                            for rate in rateAxis {
                                let benchCase = BenchCase(
                                    suite: suite.name, workload: workload.name, scheduler: scheduler, strategy: strategy,
                                    producers: producerCount, events: events ?? entry.events ?? workload.defaultEvents,
                                    payloadBytes: payload, rateHz: rate
                                )
                                if let reason = workload.skipReason(benchCase) {
                                    skipped.append(Skip(what: benchCase.description, reason: reason))
                                } else if seen.insert(benchCase).inserted {
                                    cases.append(benchCase)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (cases, skipped)
    }
}
