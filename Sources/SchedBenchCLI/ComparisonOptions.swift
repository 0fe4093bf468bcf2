import ArgumentParser
import Foundation
import SchedulerBench

/// The options `compare` and `gate` share: thresholds, metrics, output format, strictness.
struct ComparisonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Default threshold: a change smaller than this is not a regression (5% or 0.05).", valueName: "fraction"))
    var threshold = "5%"

    @Option(
        help: ArgumentHelp(
            "JSON file with per-metric and per-workload thresholds (format: docs, \"Gating CI\"; ci/thresholds.json is an example).",
            valueName: "file"))
    var thresholds: String?

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "Metrics to compare (default: throughput, latency p50/p99, CPU, RSS, allocations, instructions, ticks).", valueName: "name"))
    var metrics: [String] = []

    @Option(help: "Output: table, markdown (for CI job summaries) or csv.")
    var format = "table"

    @Flag(help: "Fail (exit 1) when a case was measured on one side only.")
    var requireAll = false

    @Flag(help: "Fail (exit 2) on inconclusive rows too, not only on regressions.")
    var failOnInconclusive = false

    @Flag(help: "Refuse (exit 1) to compare runs made on different testbeds (CPU, cores, kernel, Swift, build, governor, CPU limit).")
    var requireSameTestbed = false

    @Flag(
        help: ArgumentHelp(
            "Decide each row on its own (90% confidence per row) instead of for the whole comparison (Holm): more false alarms as rows are added."
        ))
    var perRow = false

    func validate() throws {
        _ = try defaultThreshold()
        _ = try metricList()
        guard ComparisonRendering.Format(rawValue: format) != nil else {
            throw ValidationError(
                "unknown --format '\(format)'; valid: \(ComparisonRendering.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func defaultThreshold() throws -> Double {
        try Self.parseThreshold(threshold)
    }

    /// `--threshold`'s value: a fraction (0.05) or a percentage (5%), 0 up to 10.
    static func parseThreshold(_ given: String) throws -> Double {
        let text = given.trimmingCharacters(in: .whitespaces)
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, value >= 0, value < 10 else {
            throw ValidationError("--threshold '\(given)' is not a fraction like 0.05 or a percentage like 5%")
        }
        return value
    }

    func metricList() throws -> [Metric] {
        try Self.parseMetrics(metrics) ?? Metric.comparedByDefault
    }

    /// `--metric` values (repeatable, comma-separated) as metrics; nil when none was given.
    /// An unknown name, or an option given with nothing in it, is a usage error.
    static func parseMetrics(_ values: [String]) throws -> [Metric]? {
        guard !values.isEmpty else { return nil }
        let given = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !given.isEmpty else { throw ValidationError("--metric '\(values.joined(separator: ","))' names no metric") }
        return try given.map { name in
            guard let metric = Metric(rawValue: name) else {
                throw ValidationError("unknown --metric '\(name)'; valid: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return metric
        }
    }

    /// Reads both sides, compares, prints the comparison on standard output (and writes
    /// `comparison.csv` to `csv` when given), and returns the decision. `paired`: trials
    /// with the same number form pairs (a gate's rounds). Unreadable input throws `BenchError`.
    func compare(base: String, new: String, paired: Bool = false, writingCSVTo csv: URL? = nil) throws -> ComparisonDecision {
        let (baseCases, baseProvenance) = try ResultsFiles.read(base)
        let (newCases, newProvenance) = try ResultsFiles.read(new)
        if let baseProvenance, let newProvenance {
            let differences = baseProvenance.testbedDifferences(from: newProvenance)
            if !differences.isEmpty {
                let said = "BASE and NEW were measured on different testbeds: \(differences.joined(separator: "; "))"
                if requireSameTestbed { return report(.mismatched(said + " (--require-same-testbed)"), new: new) }
                printError("warning: \(said); a difference may be the machines', not the code's (--require-same-testbed makes this an error)")
            }
            warnIfBusy("BASE", baseProvenance)
        }
        if let newProvenance { warnIfBusy("NEW", newProvenance) }
        let comparison = Comparison(
            base: baseCases, new: newCases, thresholds: try thresholdTable(), metrics: try metricList(), method: perRow ? .perRow : .familyWise,
            paired: paired)
        return try conclude(comparison, baseCases: baseCases.count, newCases: newCases.count, base: base, new: new, csv: csv)
    }

    /// NEW against the last `window` comparable runs of each case in a history (same
    /// testbed, started before NEW): `compare --history`. Printing and the decision are as
    /// in `compare(base:new:)`; cases with no comparable run are listed, and fail only with
    /// `--require-all`.
    func compare(history location: HistoryLocation, new: String, window: Int, writingCSVTo csv: URL? = nil) throws -> ComparisonDecision {
        let (newCases, newProvenance) = try ResultsFiles.read(new)
        guard let newProvenance, !newCases.isEmpty else { throw BenchError.unreadable(path: new, problem: "holds no results") }
        guard newProvenance.testbedIsRecorded else {
            throw BenchError.mismatched(
                "\(new) does not record its testbed (a run from before the fingerprint); a history compares only runs on an equal, recorded testbed")
        }
        warnIfBusy("NEW", newProvenance)
        let history = try History(location, create: false)
        let windows = try history.window(for: newProvenance, cases: newCases.map(\.benchCase), size: window)
        if windows.isEmpty {
            return report(
                .mismatched(
                    "nothing to compare: no run in the history \(location) measured NEW's cases on NEW's testbed before it "
                        + "(add runs of the base branch first: schedbench history add, or run --history)"),
                new: new)
        }
        let short = windows.values.filter { $0.count < 5 }.count
        if short > 0 {
            printError(
                "note: \(short) of \(windows.count) cases have fewer than 5 comparable runs in the history; "
                    + "their bounds are wide (a t with one degree of freedom fewer than runs), so they are mostly inconclusive")
        }
        let comparison = Comparison(
            window: windows, new: newCases, thresholds: try thresholdTable(), metrics: try metricList(), method: perRow ? .perRow : .familyWise)
        return try conclude(comparison, baseCases: windows.count, newCases: newCases.count, base: "the history \(location)", new: new, csv: csv)
    }

    func thresholdTable() throws -> Thresholds {
        try thresholds.map { try Thresholds.read($0, defaultThreshold: defaultThreshold()) } ?? Thresholds(defaultThreshold: defaultThreshold())
    }

    private func warnIfBusy(_ side: String, _ provenance: Provenance) {
        if let load = Double(provenance.loadAverage), load >= Double(max(1, provenance.cores)) {
            printError("warning: \(side) started on a busy machine (load average \(provenance.loadAverage) on \(provenance.cores) cores)")
        }
    }

    private func conclude(
        _ comparison: Comparison, baseCases: Int, newCases: Int, base: String, new: String, csv: URL?
    ) throws -> ComparisonDecision {
        print(try ComparisonRendering.render(comparison, format: ComparisonRendering.Format(rawValue: format)!))
        if let csv { try ComparisonFile.write(comparison, to: csv) }
        return report(
            comparison.decision(
                baseCases: baseCases, newCases: newCases, base: base, new: new, requireAll: requireAll, failOnInconclusive: failOnInconclusive),
            new: new)
    }

    /// Says on stderr what `decision` means, and returns it.
    private func report(_ decision: ComparisonDecision, new: String) -> ComparisonDecision {
        switch decision {
        case .passed: break
        case .mismatched(let problem): printError("error: \(problem)")
        case .correctnessFailure(let cases): printError("error: correctness failure in NEW (\(new)): \(cases) case(s)")
        case .regressed(let regressed, let inconclusive):
            printError("regression: \(regressed) regressed" + (failOnInconclusive ? ", \(inconclusive) inconclusive" : "") + " (exit 2)")
        }
        return decision
    }
}
