import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `schedbench export`: a run's results for a continuous-benchmarking service.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run's results for a continuous-benchmarking service (Bencher, github-action-benchmark, OpenMetrics).",
        discussion: """
            Per case and metric: the median over the trials and its 95% interval. Formats: \
            bmf (Bencher Metric Format JSON, for `bencher run --adapter json`), \
            github-action-benchmark (its custom tool JSON: the smaller-is-better metrics by \
            default, since one file takes one direction), openmetrics (text exposition). \
            Export schema \(Export.schemaVersion): the names are in the docs ("Exports").

            Exit codes: 0 written; 1 unreadable run or nothing to export; 64 usage.
            """
    )

    @Argument(help: ArgumentHelp("The run (results directory or results.csv).", valueName: "run"))
    var results: String

    @Option(help: "bmf, github-action-benchmark or openmetrics.")
    var format: String

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp("Metrics to export (default: those compare judges).", valueName: "name"))
    var metrics: [String] = []

    @Option(help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"))
    var out: String?

    func validate() throws {
        guard Export.Format(rawValue: format) != nil else {
            throw ValidationError("unknown --format '\(format)'; valid: \(Export.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try chosenMetrics()
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out '' names no file") }
    }

    private func chosenMetrics() throws -> [Metric]? {
        try ComparisonOptions.parseMetrics(metrics)
    }

    func run() throws {
        let (cases, provenance) = try ResultsFiles.read(results)
        let chosen = try chosenMetrics()
        let text = try Export.render(
            cases, provenance: provenance, format: Export.Format(rawValue: format)!, metrics: chosen ?? Export.defaultMetrics,
            metricsChosen: chosen != nil)
        guard let out else {
            print(text, terminator: "")
            return
        }
        try Export.write(text, to: URL(fileURLWithPath: out))
    }
}
