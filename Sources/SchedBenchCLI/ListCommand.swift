import ArgumentParser
import BenchWorkflows

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List workloads, schedulers, strategies and suites."
    )

    func run() {
        print(Self.render())
    }

    /// The listing: every name with its one-line description, from the engine's catalogue.
    static func render() -> String {
        let indent = String(repeating: " ", count: 24)
        func padded(_ name: String, _ width: Int) -> String { name.padding(toLength: max(width, name.count + 2), withPad: " ", startingAt: 0) }
        var lines = ["Workloads:"]
        for workload in Workloads.descriptions {
            lines.append("  \(padded(workload.name.rawValue, 22))\(workload.summary)")
            let byStrategy = Dictionary(grouping: workload.variants, by: \.strategy)
            let runs = Registry.current.ordered(byStrategy.keys).map { strategy in
                "\(strategy.rawValue) on \(byStrategy[strategy]!.map(\.scheduler.rawValue).joined(separator: ","))"
            }
            lines.append("\(indent)runs: \(runs.joined(separator: "; "))")
            let rate = workload.defaultRateHz > 0 ? ", rate \(workload.defaultRateHz) Hz" : ""
            lines.append(
                "\(indent)axes: \(workload.axes.isEmpty ? "none" : workload.axes.joined(separator: ", ")); default events \(workload.defaultEvents)\(rate)"
            )
        }
        lines.append("\nSchedulers:")
        for scheduler in Registry.current.schedulers {
            let claims = scheduler.contracts.names.isEmpty ? "" : " [\(scheduler.contracts.names.joined(separator: ", "))]"
            lines.append("  \(padded(scheduler.name.rawValue, 16))\(scheduler.summary)\(claims)")
        }
        lines.append(
            "  \(padded(SchedulerName.none.rawValue, 16))no Rx scheduler: the hand-offs (context baselines and peer frameworks) run their own consumer")
        lines.append("\nStrategies (each selects on one axis):")
        for axis in StrategyName.Axis.allCases {
            lines.append("  \(axis.rawValue):")
            lines += Registry.current.strategies.filter { $0.axis == axis }.map { "    \(padded($0.name.rawValue, 18))\($0.summary)" }
        }
        lines.append("\nSuites:")
        lines += Suite.all.map { "  \(padded($0.name, 16))\($0.summary)" }
        lines.append("\nStress scenarios (schedbench stress):")
        for scenario in StressScenarioName.allCases {
            lines.append("  \(padded(scenario.rawValue, 22))\(scenario.summary)")
            lines.append("\(indent)checks: \(scenario.checks.map(\.rawValue).joined(separator: ", "))")
        }
        lines.append("\nStress points of the core (schedbench stress --points; perturbed in a build with the StressHooks trait):")
        lines += Perturbation.points.map { "  \(padded($0.name, 26))\($0.summary)" }
        return lines.joined(separator: "\n")
    }
}
