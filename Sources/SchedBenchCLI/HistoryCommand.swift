import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `schedbench history`: runs kept over time, in SQLite or PostgreSQL.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Keep runs over time (SQLite, or PostgreSQL for a fleet) and show trends.",
        discussion: """
            A history holds whole runs (provenance and every trial's metrics). Runs compare \
            only with runs of the same testbed (CPU, cores, kernel, Swift, build, governor, \
            CPU limit), so many runners can share one database. `compare --history DB NEW` \
            judges a run against the history; `run --history` adds a run as it finishes.

            --db takes a file path (default \(HistoryLocation.defaultPath)) or \
            postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require] \
            (a build with the PostgreSQL trait; the password may come from PGPASSWORD).

            Exit codes: 0 done; 1 unreadable run, or a database that cannot be reached, is \
            not a history, or is of a newer schema (nothing stored is changed); 64 usage.
            """,
        subcommands: [Add.self, List.self, Trend.self]
    )

    struct Database: ParsableArguments {
        @Option(name: .customLong("db"), help: ArgumentHelp("The history: a SQLite file or a postgres:// URL.", valueName: "path-or-url"))
        var db = HistoryLocation.defaultPath

        func validate() throws { _ = try location() }

        func location() throws -> HistoryLocation {
            do {
                return try HistoryLocation(db)
            } catch BenchError.history(let location, let problem) {
                throw ValidationError("--db \(location): \(problem)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add runs to the history (a run already stored is left as it is).")

        @Argument(help: ArgumentHelp("Runs to add (results directories or results.csv files).", valueName: "run"))
        var runs: [String]

        @OptionGroup var database: Database

        func validate() throws {
            if runs.isEmpty { throw ValidationError("name at least one run to add") }
        }

        func run() throws {
            let location = try database.location()
            try HistoryWorkflow.add(runs: runs, to: location) { runID, outcome in
                print(HistoryCommand.describe(outcome, runID: runID, into: location))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the stored runs, oldest first.")

        @OptionGroup var database: Database

        @Option(help: "Only the newest N runs.")
        var last: Int?

        func validate() throws {
            if let last, last < 1 { throw ValidationError("--last \(last) must be at least 1") }
        }

        func run() throws {
            let history = try History(try database.location(), create: false)
            print(HistoryRendering.runs(try history.runs(limit: last)))
        }
    }

    struct Trend: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One metric of one workload over the stored runs: a sparkline and a table per case and testbed.")

        @OptionGroup var database: Database

        @Option(help: "The workload (see `schedbench list`).")
        var workload: String

        @Option(help: "The metric (a results.csv metric name, e.g. ns_per_event).")
        var metric: String

        @Option(help: "Only this scheduler.")
        var scheduler: String?

        @Option(help: "Only this strategy.")
        var strategy: String?

        @Option(help: "Only the newest N runs of each case (default 20).")
        var last = 20

        func validate() throws {
            _ = try names()
            if last < 1 { throw ValidationError("--last \(last) must be at least 1") }
        }

        private func names() throws -> (WorkloadName, Metric, SchedulerName?, StrategyName?) {
            // A history may hold other executables' entries: any well-formed name is asked for.
            func name<Name: OpenName>(_ value: String, _ option: String) throws -> Name {
                let problem = option == "strategy" ? NameRules.problem(withStrategy: value) : NameRules.problem(with: value)
                if let problem { throw ValidationError("--\(option) '\(value)' \(problem)") }
                return Name(value)
            }
            guard let metricName = Metric(rawValue: metric) else {
                throw ValidationError("unknown --metric '\(metric)'; valid: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return (
                try name(workload, "workload"), metricName, try scheduler.map { try name($0, "scheduler") },
                try strategy.map { try name($0, "strategy") }
            )
        }

        func run() throws {
            let (workload, metric, scheduler, strategy) = try names()
            let history = try History(try database.location(), create: false)
            let series = try history.trend(workload: workload, metric: metric, scheduler: scheduler, strategy: strategy)
            guard !series.isEmpty else {
                printError(
                    "no stored run measured \(metric.rawValue) of \(workload.rawValue)\(scheduler.map { " on \($0.rawValue)" } ?? "")"
                        + "\(strategy.map { " with \($0.rawValue)" } ?? "") in \(history.location)")
                throw ExitStatus.error
            }
            print(HistoryRendering.trend(series, metric: metric, last: last))
        }
    }

    static func describe(_ outcome: History.AddOutcome, runID: String, into location: HistoryLocation) -> String {
        let runID = TerminalText.visible(runID)
        switch outcome {
        case .added(let cases, let values): return "added \(runID) to \(location): \(cases) cases, \(values) values"
        case .alreadyStored: return "\(runID) is already in \(location); left as it is"
        }
    }
}
