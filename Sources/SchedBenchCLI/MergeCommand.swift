import ArgumentParser
import Foundation
import BenchAnalysis
import BenchModel
import BenchWorkflows

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shards of a run or a gate (made with --shard K/N, say on a CI matrix) into one.",
        discussion: """
            Give every shard's directory. A run's shards become one run under --out \
            (results.csv, summary.csv, violations.csv and the latency distributions, in the \
            whole plan's order), with its report and its history entry when asked for. A \
            gate's shards become one gate: baseline/ and candidate/ under --out, compared once \
            over every case (one family-wise correction, one verdict), with comparison.csv and \
            report/index.html; the comparison options apply to them.

            Nothing is written unless every shard of one plan is given once, all made by one \
            build, and each finished; what is wrong is named by shard and directory.

            Exit codes: 0 merged (a gate: no regression); 1 a shard missing, given twice, \
            unfinished, of another plan or build, or unreadable; 2 a gate's regression; 3 a \
            correctness failure; 64 usage.
            """
    )

    @Argument(help: ArgumentHelp("The shards' results directories (a run's or a gate's --out), in any order.", valueName: "shard"))
    var shards: [String] = []

    @Option(help: "Directory for the merged run or gate (default: results/merged-<time>).")
    var out: String?

    @Flag(help: "Replace the results already in --out.")
    var overwrite = false

    @Flag(help: "A run's shards: also write the merged run's HTML report (report/index.html under --out).")
    var report = false

    @Option(
        defaultAsFlag: HistoryLocation.defaultPath, parsing: .next,
        help: ArgumentHelp(
            "A run's shards: add the merged run to a history when it is clean (a SQLite file, default \(HistoryLocation.defaultPath), or a postgres:// URL).",
            valueName: "path-or-url"))
    var history: String? = nil

    @Flag(help: "Do not print the merged run's summary table.")
    var noTable = false

    @OptionGroup var comparison: ComparisonOptions

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("name the shards' directories: every --shard K/N run (or gate) of one plan") }
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out '' names no directory") }
        if let out {
            let target = URL(fileURLWithPath: out).standardizedFileURL.path
            if let shard = shards.first(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == target }) {
                throw ValidationError("--out '\(out)' is the shard '\(shard)'; merge into another directory")
            }
        }
        _ = try historyLocation()
    }

    private func historyLocation() throws -> HistoryLocation? { try RunCommand.historyLocation(history) }

    func run() throws {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let directory = URL(fileURLWithPath: out ?? "results/merged-\(stamp)")
        let workflow = MergeWorkflow(
            shards: shards.map { URL(fileURLWithPath: $0) }, directory: directory, replaceExisting: overwrite, writeReport: report,
            history: try historyLocation(), policy: try comparison.policy())
        let outcome: MergeWorkflow.Outcome
        do {
            outcome = try workflow.execute()
        } catch BenchError.resultsExist(let path) {
            printError("error: \(path) holds earlier results; choose a new --out, or pass --overwrite to replace them")
            throw ExitStatus.error
        }
        for warning in outcome.warnings { printError("warning: \(TerminalText.visible(warning))") }
        let merged = "merge: \(outcome.shardCount) shards of a \(outcome.kind.rawValue), \(outcome.cases.count) cases"
        switch outcome.kind {
        case .run:
            try concludeRun(outcome, directory: directory, merged: merged)
        case .gate:
            guard let found = outcome.comparison else { throw ExitStatus.error }
            var status = ExitStatus(try comparison.present(found, new: directory.appendingPathComponent(GateSide.candidate.rawValue).path))
            switch outcome.report {
            case .success(let file): printError("\(merged): results in \(directory.path); report: \(file.path)")
            case .failure(let error):
                printError("error: the report: \(error)")
                if status == .ok { status = .error }
            case nil: break
            }
            if status != .ok { throw status }
        }
    }

    /// Prints what a merged run holds, its report and history step; throws its status.
    private func concludeRun(_ outcome: MergeWorkflow.Outcome, directory: URL, merged: String) throws {
        if !noTable { print(SummaryTable.render(outcome.results)) }
        printError("\(merged): \(directory.path)/\(ResultsFiles.resultsName), \(directory.path)/\(ResultsFiles.summaryName)")
        let failures = outcome.results.filter { $0.correctnessFailures > 0 }
        var status = ExitStatus.ok
        if !failures.isEmpty {
            printError(
                "error: correctness failure in \(failures.count) case(s): \(failures.map { "\($0.benchCase)" }.joined(separator: "; ")); "
                    + "what was violated: \(directory.path)/\(ResultsFiles.violationsName)")
            status = .correctnessFailure
        }
        switch outcome.report {
        case .success(let file): printError("report: \(file.path)")
        case .failure(let error):
            printError("error: the report: \(error)")
            if status == .ok { status = .error }
        case nil: break
        }
        if let location = try historyLocation(), let step = outcome.history {
            switch step {
            case .added(let added):
                printError(HistoryCommand.describe(added, runID: outcome.runID ?? "", into: location))
            case .notAdded:
                printError("not added to the history \(location): only a run that finished cleanly is")
                if status == .ok { status = .error }
            case .failed(let error):
                throw error
            }
        }
        if status != .ok { throw status }
    }

}
