/// What a measuring executable can measure, as it describes itself to the tool (the child
/// protocol's `describe` job): every workload with the (scheduler, strategy) pairs it runs,
/// the schedulers, strategies, suites, stress scenarios and stress points, each with its
/// one line for `schedbench list`. The tool checks the names a user types against it and
/// renders `list` from it; it never sees the registry itself.
package struct RegistryDescription: Codable, Sendable, Equatable {
    package struct Scheduler: Codable, Sendable, Equatable {
        package var name: SchedulerName
        package var summary: String
        /// What it promises (`serial`, `ordered`).
        package var contracts: [String]
        /// Whether a stress run can drive it (`stress --scheduler`), or why not.
        package var stressRefusal: String?

        package init(name: SchedulerName, summary: String, contracts: [String], stressRefusal: String? = nil) {
            self.name = name
            self.summary = summary
            self.contracts = contracts
            self.stressRefusal = stressRefusal
        }
    }

    package struct Strategy: Codable, Sendable, Equatable {
        package var name: StrategyName
        package var axis: StrategyName.Axis
        package var summary: String
        /// A hand-off: it runs on scheduler `none`.
        package var isHandOff: Bool

        package init(name: StrategyName, axis: StrategyName.Axis, summary: String, isHandOff: Bool) {
            self.name = name
            self.axis = axis
            self.summary = summary
            self.isHandOff = isHandOff
        }
    }

    package struct Variant: Codable, Sendable, Equatable {
        package var scheduler: SchedulerName
        package var strategy: StrategyName

        package init(scheduler: SchedulerName, strategy: StrategyName) {
            self.scheduler = scheduler
            self.strategy = strategy
        }
    }

    package struct Workload: Codable, Sendable, Equatable {
        package var name: WorkloadName
        /// One line: what a trial does and what it measures.
        package var summary: String
        /// The pairs it runs, in listing order.
        package var variants: [Variant]
        /// The pairs with a composite strategy (`drain+batched`) it runs when a run names
        /// them, in listing order.
        package var composites: [Variant]
        /// Why the other schedulers are not offered.
        package var unsupportedReason: String
        /// The axes it varies (`producers`, `payload`, `rate`); the others stay neutral.
        package var axes: [String]
        package var defaultEvents: Int
        /// Default pacing in Hz, for workloads with the rate axis (0 otherwise).
        package var defaultRateHz: Int

        package init(
            name: WorkloadName, summary: String, variants: [Variant], composites: [Variant] = [], unsupportedReason: String, axes: [String],
            defaultEvents: Int, defaultRateHz: Int
        ) {
            self.name = name
            self.summary = summary
            self.variants = variants
            self.composites = composites
            self.unsupportedReason = unsupportedReason
            self.axes = axes
            self.defaultEvents = defaultEvents
            self.defaultRateHz = defaultRateHz
        }
    }

    package struct Suite: Codable, Sendable, Equatable {
        package var name: String
        package var summary: String

        package init(name: String, summary: String) {
            self.name = name
            self.summary = summary
        }
    }

    package struct Scenario: Codable, Sendable, Equatable {
        package var name: StressScenarioName
        package var summary: String
        /// The violation kinds it checks.
        package var checks: [ViolationKind]

        package init(name: StressScenarioName, summary: String, checks: [ViolationKind]) {
            self.name = name
            self.summary = summary
            self.checks = checks
        }
    }

    package struct Point: Codable, Sendable, Equatable {
        /// The name `stress --points` takes.
        package var name: String
        /// Where it is in the core.
        package var summary: String

        package init(name: String, summary: String) {
            self.name = name
            self.summary = summary
        }
    }

    package var workloads: [Workload]
    package var schedulers: [Scheduler]
    package var strategies: [Strategy]
    package var suites: [Suite]
    package var scenarios: [Scenario]
    package var stressPoints: [Point]
    /// Whether the core was built with its stress points (the `StressHooks` trait).
    package var hooksCompiled: Bool
    /// Whether the executable was built from a copy of the tree with the seeded-bug
    /// catalogue planted (scripts/seeded-bugs.py), so that `RXSCHEDULERS_SEEDED_BUG` means
    /// something to it.
    package var seededBuild: Bool

    package init(
        workloads: [Workload], schedulers: [Scheduler], strategies: [Strategy], suites: [Suite], scenarios: [Scenario],
        stressPoints: [Point], hooksCompiled: Bool, seededBuild: Bool
    ) {
        self.workloads = workloads
        self.schedulers = schedulers
        self.strategies = strategies
        self.suites = suites
        self.scenarios = scenarios
        self.stressPoints = stressPoints
        self.hooksCompiled = hooksCompiled
        self.seededBuild = seededBuild
    }

    /// The names a command line may give for each kind, in listing order (`none`, the
    /// hand-offs' scheduler, among the schedulers).
    package var workloadNames: [WorkloadName] { workloads.map(\.name) }
    package var schedulerNames: [SchedulerName] { schedulers.map(\.name) + [.none] }
    package var strategyNames: [StrategyName] { strategies.map(\.name) }
    /// The strategy names a run may give: the registered ones, then the composites some
    /// workload runs on request.
    package var selectableStrategyNames: [StrategyName] {
        var composites: [StrategyName] = []
        for variant in workloads.flatMap(\.composites) where !composites.contains(variant.strategy) { composites.append(variant.strategy) }
        return strategyNames + StrategyName.ordered(composites)
    }
}

/// What a run asks a measuring executable to plan (the child protocol's `plan` job): a
/// suite, optionally narrowed by names and resized on its axes. The executable expands it
/// over its registry into cases and the combinations it skipped, with why.
package struct PlanRequest: Codable, Sendable, Hashable {
    package var suite: String
    package var workloads: [WorkloadName]?
    package var schedulers: [SchedulerName]?
    package var strategies: [StrategyName]?
    package var producers: [Int]?
    package var events: Int?
    package var payloads: [Int]?
    package var rates: [Int]?

    package init(
        suite: String, workloads: [WorkloadName]? = nil, schedulers: [SchedulerName]? = nil, strategies: [StrategyName]? = nil,
        producers: [Int]? = nil, events: Int? = nil, payloads: [Int]? = nil, rates: [Int]? = nil
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
}

/// A planned run: its cases in order, and the combinations that do not apply.
package struct PlanReply: Codable, Sendable, Equatable {
    package struct Skip: Codable, Sendable, Equatable, CustomStringConvertible {
        package var what: String
        package var reason: String
        package var description: String { "\(what): \(reason)" }

        package init(what: String, reason: String) {
            self.what = what
            self.reason = reason
        }
    }

    package var cases: [BenchCase]
    package var skipped: [Skip]

    package init(cases: [BenchCase], skipped: [Skip]) {
        self.cases = cases
        self.skipped = skipped
    }
}
