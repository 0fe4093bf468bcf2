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

    package typealias Skip = PlanReply.Skip

    /// The plan a tool's request asks for, over `registry`: an unknown suite or a name the
    /// registry does not hold is a usage error naming the valid ones.
    package init(_ request: PlanRequest, in registry: Registry = .current) throws {
        guard let suite = Suite.named(request.suite) else {
            throw BenchError.usage("unknown suite '\(request.suite)'; valid: \(Suite.all.map(\.name).joined(separator: ", "))")
        }
        func check<Name: RegisteredName>(_ names: [Name]?, _ option: String) throws -> [Name]? {
            let valid = Name.registered(in: registry)
            for name in names ?? [] where !valid.contains(name) {
                throw BenchError.usage("unknown \(option) '\(name.rawValue)'; valid: \(valid.map(\.rawValue).joined(separator: ", "))")
            }
            return names
        }
        _ = try check(request.strategies?.filter { $0.dispatchPart == nil }, "strategy")
        for name in request.strategies ?? [] where name.dispatchPart != nil && !registry.isComposite(name) {
            let dispatches = registry.strategies.filter { $0.axis == .dispatch }.map(\.name.rawValue).joined(separator: ", ")
            throw BenchError.usage(
                "unknown strategy '\(name.rawValue)': a composite is an observe(on:) strategy or periodic policy, '+', "
                    + "then a dispatch (\(dispatches))")
        }
        self.init(
            suite: suite, workloads: try check(request.workloads, "workload"), schedulers: try check(request.schedulers, "scheduler"),
            strategies: request.strategies, producers: request.producers, events: request.events,
            payloads: request.payloads, rates: request.rates)
    }

    /// The cases of the plan over `registry`'s entries.
    package func expand(in registry: Registry = .current) -> (cases: [BenchCase], skipped: [Skip]) {
        expandedReply(in: registry).pair
    }

    /// The cases and skips as the child protocol sends them.
    package func expandedReply(in registry: Registry = .current) -> PlanReply {
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
                // Composites run only where a run or a suite entry names them.
                let selectable = offered + workload.composites(on: scheduler, in: registry)
                for named in strategies ?? entry.strategies ?? offeredUnnamed {
                    let strategy = registry.scheduler(scheduler).map { registry.canonical(named, on: $0) } ?? named
                    guard selectable.contains(strategy) else {
                        if strategies != nil {
                            let valid = selectable.map(\.rawValue).joined(separator: ", ")
                            skipped.append(
                                Skip(
                                    what: "\(workload.name.rawValue) on \(scheduler.rawValue) with \(named.rawValue)",
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
                                    producers: producerCount, events: events ?? entry.events(on: scheduler, with: strategy) ?? workload.defaultEvents,
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
        // Two suite entries of one workload (at different rates, say) skip a scheduler for
        // the same reason: say it once.
        var distinct: [Skip] = []
        for skip in skipped where !distinct.contains(skip) { distinct.append(skip) }
        return PlanReply(cases: cases, skipped: distinct)
    }
}

extension PlanReply {
    var pair: (cases: [BenchCase], skipped: [Skip]) { (cases, skipped) }
}

