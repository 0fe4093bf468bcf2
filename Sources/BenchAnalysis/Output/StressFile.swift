import BenchChild
import BenchModel
import Foundation

/// `stress.csv`: one row per scenario × checked violation kind and per scenario × outcome,
/// with the provenance columns of `results.csv` on every row (tidy, like `results.csv`).
///
/// Columns after the provenance: `scenario, seed, iterations, operations, duration_s,
/// hooks` (`compiled` or `absent`), `status` (`passed`, `failed`, or `interrupted`: stopped by Ctrl-C before its budget ran out, with no violation), `failing_iteration`,
/// `seconds_to_failure`, `replay` (the command that replays the failure; empty when it
/// passed), then `record` (`violation` or `outcome`), `name` (a violation kind or an
/// outcome's name), `class` (`forbidden` for violations; `acceptable` or `forbidden` for
/// outcomes) and `count`.
///
/// Beside it, a scenario whose child crashed leaves `crash-<scenario>.log`: the child's
/// standard error, with the Swift runtime's backtrace of every thread.
package enum StressFile {
    package static let name = "stress.csv"

    package static let header =
        Provenance.columns + [
            "scenario", "seed", "iterations", "operations", "duration_s", "hooks", "status", "failing_iteration", "seconds_to_failure", "replay",
            "record", "name", "class", "count",
        ]

    package static func rows(_ results: [StressResult], provenance: Provenance) -> [[String]] {
        results.flatMap { result -> [[String]] in
            let scenario =
                provenance.columnValues + [
                    result.scenario.rawValue, String(result.seed), String(result.iterations), String(result.operations),
                    String(format: "%.3f", result.durationSeconds), result.hooksCompiled ? "compiled" : "absent",
                    result.status, result.failingIteration.map(String.init) ?? "",
                    result.secondsToFirstViolation.map { String(format: "%.3f", $0) } ?? "", result.replayCommand ?? "",
                ]
            let kinds = result.violations.keys.sorted()
            let violations = kinds.map { scenario + ["violation", $0.rawValue, OutcomeClass.forbidden.rawValue, String(result.violations[$0]!)] }
            let outcomes = result.outcomes.map { scenario + ["outcome", $0.name, $0.outcomeClass.rawValue, String($0.count)] }
            return violations + outcomes
        }
    }

    /// Where a crashed scenario's log goes, in the results directory.
    package static func crashLogName(_ scenario: StressScenarioName) -> String { "crash-\(scenario.rawValue).log" }

    /// Writes `stress.csv` into `directory` (created if missing), atomically, and the crash
    /// log of each result that has one; returns the crash logs' paths.
    @discardableResult
    package static func write(_ results: [StressResult], provenance: Provenance, to directory: URL) throws -> [URL] {
        try ResultsFiles.prepare(directory)
        try CSVFile.write(header: header, rows: rows(results, provenance: provenance), to: directory.appendingPathComponent(name))
        return try results.compactMap { result in
            guard let log = result.crashLog else { return nil }
            let file = directory.appendingPathComponent(crashLogName(result.scenario))
            try AtomicFile.write(log, to: file)
            return file
        }
    }

    /// Reads a `stress.csv` back: one row per record, as column → value.
    package static func read(_ path: String) throws -> [[String: String]] {
        try CSVFile.read(URL(fileURLWithPath: path), requiring: header)
    }

    /// The results as Markdown: a summary table, then each scenario's outcome table.
    package static func markdown(_ results: [StressResult]) -> String {
        var lines = [
            "| scenario | status | iterations | operations | seconds | violations | replay |",
            "|---|---|---:|---:|---:|---|---|",
        ]
        for result in results {
            let seen = result.violations.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
            lines.append(
                "| \(result.scenario.rawValue) | \(result.passed ? result.status : "**failed**") | \(result.iterations) | \(result.operations) | "
                    + "\(String(format: "%.1f", result.durationSeconds)) | \(seen.isEmpty ? "none" : seen.joined(separator: ", ")) | "
                    + "\(result.replayCommand.map { "`\($0)`" } ?? "") |")
        }
        for result in results where !result.outcomes.isEmpty {
            lines += ["", "**\(result.scenario.rawValue)** outcomes", "", "| outcome | class | count |", "|---|---|---:|"]
            lines += result.outcomes.map { "| \($0.name) | \($0.outcomeClass.rawValue) | \($0.count) |" }
        }
        return lines.joined(separator: "\n")
    }
}
