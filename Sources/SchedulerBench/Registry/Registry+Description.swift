import BenchModel
import RxSchedulers

extension Registry {
    /// What this executable can measure, for the tool (the child protocol's `describe`):
    /// every entry in listing order, the suites, the stress scenarios and points.
    package var description: RegistryDescription {
        RegistryDescription(
            workloads: workloads.map { workload in
                RegistryDescription.Workload(
                    name: workload.name, summary: workload.summary,
                    variants: workload.variants(in: self).map { RegistryDescription.Variant(scheduler: $0.0, strategy: $0.1) },
                    composites: workload.compositeVariants(in: self).map { RegistryDescription.Variant(scheduler: $0.0, strategy: $0.1) },
                    unsupportedReason: workload.unsupportedReason,
                    axes: ["producers", "payload", "rate"].filter { workload.axes.contains(Axis(rawValue: $0)!) },
                    defaultEvents: workload.defaultEvents, defaultRateHz: workload.defaultRateHz)
            },
            schedulers: schedulers.map { scheduler in
                RegistryDescription.Scheduler(
                    name: scheduler.name, summary: scheduler.summary, contracts: scheduler.contracts.names,
                    stressRefusal: scheduler.stressRefusal)
            },
            strategies: strategies.map { strategy in
                RegistryDescription.Strategy(name: strategy.name, axis: strategy.axis, summary: strategy.summary, isHandOff: strategy.makeHandOff != nil)
            },
            suites: Suite.all.map { RegistryDescription.Suite(name: $0.name, summary: $0.summary) },
            scenarios: StressScenarioName.allCases.map { RegistryDescription.Scenario(name: $0, summary: $0.summary, checks: $0.checks) },
            stressPoints: Perturbation.points.map { RegistryDescription.Point(name: $0.name, summary: $0.summary) },
            hooksCompiled: StressHooks.isCompiled, seededBuild: SeededBugRequest.isSeededBuild)
    }
}
