import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// The options `compare` and `gate` share: thresholds, metrics, output format, strictness.
struct ComparisonOptions: ParsableArguments {
    // Unconditional: a negative value is taken as the value (and refused by name), not
    // read as an unknown option that leaves the value missing.
    @Option(parsing: .unconditional, help: ArgumentHelp("Default threshold: a change smaller than this is not a regression (5% or 0.05).", valueName: "fraction"))
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
            throw ValidationError("--threshold '\(given)' is not a fraction from 0 up to 10 like 0.05, or a percentage like 5%")
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

    /// The comparison policy these options ask for.
    func policy() throws -> ComparisonPolicy {
        ComparisonPolicy(
            thresholds: try thresholdTable(), metrics: try metricList(), method: perRow ? .perRow : .familyWise,
            requireAll: requireAll, failOnInconclusive: failOnInconclusive, requireSameTestbed: requireSameTestbed)
    }

    func thresholdTable() throws -> Thresholds {
        try thresholds.map { try Thresholds.read($0, defaultThreshold: defaultThreshold()) } ?? Thresholds(defaultThreshold: defaultThreshold())
    }

    /// Prints what a comparison found: its notices on standard error, the table in
    /// `--format` on standard output, then what the decision means; returns the decision.
    func present(_ outcome: ComparisonOutcome, new: String) throws -> ComparisonDecision {
        for notice in outcome.notices {
            switch notice {
            case .warning(let text): printError("warning: \(TerminalText.visible(text))")
            case .note(let text): printError("note: \(TerminalText.visible(text))")
            }
        }
        if let comparison = outcome.comparison {
            print(try ComparisonRendering.render(comparison, format: ComparisonRendering.Format(rawValue: format)!))
        }
        return report(outcome.decision, failures: outcome.comparison?.correctnessFailures ?? [], new: new)
    }

    /// Says on stderr what `decision` means, and returns it: for a correctness failure,
    /// each failing case of NEW and what it violated.
    private func report(
        _ decision: ComparisonDecision, failures: [(benchCase: BenchCase, violations: Double, leaked: Double, samples: [ViolationSample])],
        new: String
    ) -> ComparisonDecision {
        switch decision {
        case .passed: break
        case .mismatched(let problem): printError("error: \(problem)")
        case .correctnessFailure(let cases):
            printError("error: correctness failure in NEW (\(new)): \(cases) case(s)")
            for failure in failures {
                printError("  \(failure.benchCase): \(Int(failure.violations)) invariant violations, \(Int(failure.leaked)) leaked resources")
                for line in ViolationRendering.lines(failure.samples, indent: "    ") { printError(line) }
            }
        case .regressed(let regressed, let inconclusive):
            printError("regression: \(regressed) regressed" + (failOnInconclusive ? ", \(inconclusive) inconclusive" : "") + " (exit 2)")
        }
        return decision
    }
}
