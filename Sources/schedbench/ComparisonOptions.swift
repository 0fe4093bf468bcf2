import ArgumentParser
import Foundation
import SchedulerBench

/// The options `compare` and `gate` share: thresholds, metrics, output format, strictness;
/// and the exit code their verdicts map to.
struct ComparisonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Default threshold: a change smaller than this is not a regression (5% or 0.05).", valueName: "fraction"))
    var threshold = "5%"

    @Option(help: ArgumentHelp("JSON file with per-metric and per-workload thresholds (see README, \"Gating CI\").", valueName: "file"))
    var thresholds: String?

    @Option(name: .customLong("metric"), help: ArgumentHelp("Metrics to compare (default: throughput, latency p50/p99, CPU, RSS, allocations, instructions, ticks).", valueName: "name"))
    var metrics: [String] = []

    @Option(help: "Output: table, markdown (for CI job summaries) or csv.")
    var format = "table"

    @Flag(help: "Fail (exit 1) when a case was measured on one side only.")
    var requireAll = false

    @Flag(help: "Fail (exit 2) on inconclusive rows too, not only on regressions.")
    var failOnInconclusive = false

    func validate() throws {
        _ = try defaultThreshold()
        _ = try metricList()
        guard ComparisonReport.Format(rawValue: format) != nil else {
            throw ValidationError("unknown --format '\(format)'; valid: \(ComparisonReport.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func defaultThreshold() throws -> Double {
        let text = threshold.trimmingCharacters(in: .whitespaces)
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, value >= 0, value < 10 else {
            throw ValidationError("--threshold '\(threshold)' is not a fraction like 0.05 or a percentage like 5%")
        }
        return value
    }

    func metricList() throws -> [Metric] {
        let given = metrics.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !given.isEmpty else { return Metric.comparedByDefault }
        return try given.map { name in
            guard let metric = Metric(rawValue: name) else {
                throw ValidationError("unknown --metric '\(name)'; valid: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return metric
        }
    }

    /// Reads both sides (exit 1 naming the file on failure), compares, prints, and returns
    /// the exit code: 1 input problem, 3 correctness failure in NEW, 2 regression, 0 otherwise.
    func compare(base: String, new: String, writingCSVTo csv: URL? = nil) throws -> Int32 {
        let thresholdTable: Thresholds
        let baseCases: [CaseResult], newCases: [CaseResult]
        do {
            thresholdTable = try thresholds.map { try Thresholds.read($0, defaultThreshold: defaultThreshold()) }
                ?? Thresholds(defaultThreshold: defaultThreshold())
            baseCases = try ResultsFiles.read(base).cases
            newCases = try ResultsFiles.read(new).cases
        } catch let error as CSVFileError {
            printError("error: \(error)")
            return 1
        }
        let comparison = Comparison(base: baseCases, new: newCases, thresholds: thresholdTable, metrics: try metricList())
        print(try ComparisonReport.render(comparison, format: ComparisonReport.Format(rawValue: format)!))
        if let csv {
            try Data(ComparisonReport.render(comparison, format: .csv).utf8).write(to: csv, options: .atomic)
        }

        if baseCases.isEmpty || newCases.isEmpty || comparison.rows.isEmpty && comparison.correctnessFailures.isEmpty {
            printError("error: nothing to compare: \(baseCases.count) cases in \(base), \(newCases.count) in \(new), "
                       + "\(baseCases.count - comparison.onlyInBase.count) in common with a metric on both sides")
            return 1
        }
        if requireAll && !(comparison.onlyInBase.isEmpty && comparison.onlyInNew.isEmpty) {
            printError("error: --require-all: \(comparison.onlyInBase.count) cases only in \(base), \(comparison.onlyInNew.count) only in \(new)")
            return 1
        }
        if !comparison.correctnessFailures.isEmpty {
            printError("error: correctness failure in NEW (\(new)): \(comparison.correctnessFailures.count) case(s)")
            return 3
        }
        let regressed = comparison.count(.regressed)
        let inconclusive = comparison.count(.inconclusive)
        if regressed > 0 || failOnInconclusive && inconclusive > 0 {
            printError("regression: \(regressed) regressed" + (failOnInconclusive ? ", \(inconclusive) inconclusive" : "") + " (exit 2)")
            return 2
        }
        return 0
    }
}
