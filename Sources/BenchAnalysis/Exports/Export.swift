import BenchChild
import BenchModel
import Foundation

/// A run's results in a format a continuous-benchmarking service reads (`schedbench export`):
/// per case and metric the median over the trials with its distribution-free 95% interval
/// (``Statistics/medianInterval(_:level:)``), named the same way in every format.
///
/// Names (export schema `schemaVersion`): a case is
/// `workload/scheduler/strategy/p<producers>/n<events>[/payload<bytes>][/rate<hz>]` (the suite
/// is left out: the same case measured by two suites is one benchmark); a metric keeps its
/// `results.csv` name. A change to these names bumps `schemaVersion` and is listed in the
/// changelog as breaking.
package enum Export {
    package static let schemaVersion = 1

    package enum Format: String, CaseIterable, Sendable {
        /// Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`.
        case bmf
        /// github-action-benchmark's custom tool format: `[{name, unit, value, range, extra}]`,
        /// all smaller-is-better or all bigger-is-better.
        case githubActionBenchmark = "github-action-benchmark"
        /// OpenMetrics text: one gauge family per metric, the case as labels.
        case openmetrics
    }

    /// One case × metric of a run.
    package struct Entry: Sendable, Equatable {
        package var benchCase: BenchCase
        package var metric: Metric
        package var median: Double
        /// The 95% interval for the median; nil with fewer than two values (counting metrics).
        package var interval: (low: Double, high: Double)?
        package var values: Int

        package static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.benchCase == rhs.benchCase && lhs.metric == rhs.metric && lhs.median == rhs.median && lhs.values == rhs.values
                && lhs.interval?.low == rhs.interval?.low && lhs.interval?.high == rhs.interval?.high
        }

        /// The case's benchmark name (see `Export`).
        package var benchmarkName: String { benchCase.benchmarkName }
    }

    /// The entries for `metrics` (those a case recorded), in case order, then `metrics` order.
    package static func entries(_ cases: [CaseResult], metrics: [Metric]) -> [Entry] {
        cases.flatMap { result in
            metrics.compactMap { metric -> Entry? in
                let values = result.values(metric)
                guard let median = Statistics.median(values) else { return nil }
                let interval = values.count >= 2 ? Statistics.medianInterval(values).map { (low: $0.low, high: $0.high) } : nil
                return Entry(benchCase: result.benchCase, metric: metric, median: median, interval: interval, values: values.count)
            }
        }
    }

    /// Writes an export atomically; `BenchError.unwritable` says why not.
    package static func write(_ text: String, to url: URL) throws {
        try AtomicFile.write(text, to: url)
    }

    /// The metrics exported unless asked otherwise: the ones `compare` judges by default.
    package static let defaultMetrics = Metric.comparedByDefault

    /// Renders `cases` in `format`. Throws `BenchError.mismatched` when the metrics cannot
    /// share one file of that format (github-action-benchmark: mixed directions) or when
    /// nothing is left to export.
    package static func render(
        _ cases: [CaseResult], provenance: Provenance?, format: Format, metrics: [Metric] = defaultMetrics, metricsChosen: Bool = false
    ) throws -> String {
        var chosen = metrics
        if format == .githubActionBenchmark {
            let directions = Set(chosen.map(\.higherIsBetter))
            if directions.count > 1 {
                guard !metricsChosen else {
                    throw BenchError.mismatched(
                        "github-action-benchmark takes one direction per file (customSmallerIsBetter or customBiggerIsBetter): "
                            + "export \(chosen.filter(\.higherIsBetter).map(\.rawValue).joined(separator: ", ")) separately")
                }
                // By default, the smaller-is-better metrics (events/s is ns/event's reciprocal).
                chosen = chosen.filter { !$0.higherIsBetter }
            }
        }
        let entries = entries(cases, metrics: chosen)
        guard !entries.isEmpty else {
            throw BenchError.mismatched("nothing to export: no case recorded \(chosen.map(\.rawValue).joined(separator: ", "))")
        }
        switch format {
        case .bmf: return try BencherMetricFormat.render(entries)
        case .githubActionBenchmark: return try GitHubActionBenchmark.render(entries, provenance: provenance)
        case .openmetrics: return OpenMetrics.render(entries, provenance: provenance)
        }
    }
}
