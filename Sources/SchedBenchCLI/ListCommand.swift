import ArgumentParser
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List workloads, schedulers, strategies, suites, stress scenarios and stress points."
    )

    func run() throws {
        print(Self.render(try MeasuringExecutable.resolve().describe().description))
    }

    /// The listing: every name the measuring executable has, with its one-line description.
    /// Summaries come from its registrations, a user's among them: each is printed on one
    /// line with control characters made visible (`TerminalText`).
    static func render(_ described: RegistryDescription) -> String {
        let indent = String(repeating: " ", count: 24)
        func padded(_ name: String, _ width: Int) -> String { name.padding(toLength: max(width, name.count + 2), withPad: " ", startingAt: 0) }
        func line(_ text: String) -> String { TerminalText.visible(text).replacingOccurrences(of: "\n", with: " ") }
        let listed = described.strategyNames
        var lines = ["Workloads:"]
        for workload in described.workloads {
            lines.append("  \(padded(workload.name.rawValue, 22))\(line(workload.summary))")
            let byStrategy = Dictionary(grouping: workload.variants, by: \.strategy)
            let runs = listed.filter { byStrategy[$0] != nil }.map { strategy in
                "\(strategy.rawValue) on \(byStrategy[strategy]!.map(\.scheduler.rawValue).joined(separator: ","))"
            }
            lines.append("\(indent)runs: \(runs.joined(separator: "; "))")
            if !workload.composites.isEmpty {
                let byComposite = Dictionary(grouping: workload.composites, by: \.strategy)
                let named = StrategyName.ordered(byComposite.keys).map { strategy in
                    "\(strategy.rawValue) on \(byComposite[strategy]!.map(\.scheduler.rawValue).joined(separator: ","))"
                }
                lines.append("\(indent)when named: \(named.joined(separator: "; "))")
            }
            let rate = workload.defaultRateHz > 0 ? ", rate \(workload.defaultRateHz) Hz" : ""
            lines.append(
                "\(indent)axes: \(workload.axes.isEmpty ? "none" : workload.axes.joined(separator: ", ")); default events \(workload.defaultEvents)\(rate)"
            )
        }
        lines.append("\nSchedulers:")
        for scheduler in described.schedulers {
            let claims = scheduler.contracts.isEmpty ? "" : " [\(scheduler.contracts.joined(separator: ", "))]"
            lines.append("  \(padded(scheduler.name.rawValue, 16))\(line(scheduler.summary))\(claims)")
        }
        lines.append(
            "  \(padded(SchedulerName.none.rawValue, 16))no Rx scheduler: the hand-offs (context baselines and peer frameworks) run their own consumer")
        lines.append(
            "\nStrategies (each selects on one axis; an observe(on:) strategy or periodic policy, '+', a dispatch selects both: drain+batched):")
        for axis in StrategyName.Axis.allCases {
            let strategies = described.strategies.filter { $0.axis == axis }
            guard !strategies.isEmpty else { continue }
            lines.append("  \(axis.rawValue):")
            lines += strategies.map { "    \(padded($0.name.rawValue, 18))\(line($0.summary))" }
        }
        lines.append("\nSuites:")
        lines += described.suites.map { "  \(padded($0.name, 16))\(line($0.summary))" }
        lines.append("\nStress scenarios (schedbench stress):")
        for scenario in described.scenarios {
            lines.append("  \(padded(scenario.name.rawValue, 22))\(line(scenario.summary))")
            lines.append("\(indent)checks: \(scenario.checks.map(\.rawValue).joined(separator: ", "))")
        }
        let hooks = described.hooksCompiled ? "perturbed in this build" : "not in this build: build it with --traits StressHooks"
        lines.append("\nStress points of the core (schedbench stress --points; \(hooks)):")
        lines += described.stressPoints.map { "  \(padded($0.name, 26))\(line($0.summary))" }
        return lines.joined(separator: "\n")
    }
}
