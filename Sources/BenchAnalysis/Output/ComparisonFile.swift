import BenchChild
import BenchModel
import Foundation

/// `comparison.csv`: a `Comparison` as one row per case × metric, for tools (`compare
/// --format csv` prints the same text; `gate` writes it next to both sides' results).
/// `estimator` names how the row's bounds were made (`Comparison.Estimator`: welch,
/// paired, window or single), and so the rule that decided its verdict; `unstable_repeat`
/// is set on an `instructions_per_event` row left undecided because two counts of one build,
/// made in two processes, differed by that fraction (`Comparison.repeatLimit`);
/// `noise_floor` is the case's floor from `compare --noise-floor` (`NoiseFloor`), and
/// `threshold` the larger of it and the thresholds' value.
package enum ComparisonFile {
    package static let name = "comparison.csv"

    package static let header =
        BenchCase.columns + [
            "metric", "base_median", "new_median", "base_trials", "new_trials",
            "ratio", "ratio_low", "ratio_high", "ci95_low", "ci95_high", "threshold", "verdict",
            "p_value", "p_adjusted", "detectable_change", "base_runs", "estimator", "unstable_repeat",
            "noise_floor",
        ]

    /// The CSV text.
    package static func render(_ comparison: Comparison) throws -> String {
        let format = ResultsFiles.format
        let rows = comparison.rows.map { row in
            row.benchCase.columnValues + [
                row.metric.rawValue, format(row.baseMedian), format(row.newMedian),
                String(row.baseTrials), String(row.newTrials),
                row.estimate.map { format($0.ratio) } ?? "",
                row.estimate.map { format($0.low) } ?? "",
                row.estimate.map { format($0.high) } ?? "",
                row.interval95.map { format($0.low) } ?? "",
                row.interval95.map { format($0.high) } ?? "",
                format(row.threshold), row.verdict.rawValue,
                row.pValue.map(format) ?? "", row.adjustedPValue.map(format) ?? "", row.detectableChange.map(format) ?? "",
                String(row.baseRuns), row.estimator.rawValue, row.unstableRepeat.map(format) ?? "",
                row.noiseFloor.map(format) ?? "",
            ]
        }
        return String(decoding: try CSVFile.render(header: header, rows: rows), as: UTF8.self)
    }

    /// Writes the file atomically.
    package static func write(_ comparison: Comparison, to url: URL) throws {
        try AtomicFile.write(try render(comparison), to: url)
    }
}
