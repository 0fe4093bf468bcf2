import BenchChild
import BenchModel
import Foundation

/// github-action-benchmark's custom-tool JSON (`tool: customSmallerIsBetter` or
/// `customBiggerIsBetter`): one entry per case × metric, named `<case> <metric>`, with the
/// median as `value`, the metric's unit, the 95% interval's half-width as `range`, and in
/// `extra` the interval, the trial count, the commit and the export schema.
enum GitHubActionBenchmark {
    private struct Item: Encodable {
        var name: String
        var unit: String
        var value: Double
        var range: String?
        var extra: String
    }

    static func render(_ entries: [Export.Entry], provenance: Provenance?) throws -> String {
        let items = entries.map { entry in
            var extra = "\(entry.values) values"
            if let interval = entry.interval {
                extra += "; 95% interval for the median [\(ResultsFiles.format(interval.low)), \(ResultsFiles.format(interval.high))]"
            }
            if let provenance { extra += "; commit \(provenance.commit); run \(provenance.runID)" }
            extra += "; schedbench export schema \(Export.schemaVersion)"
            return Item(
                name: "\(entry.benchmarkName) \(entry.metric.rawValue)", unit: entry.metric.unit, value: entry.median,
                range: entry.interval.map { "± " + String(format: "%.6g", ($0.high - $0.low) / 2) }, extra: extra)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(items), as: UTF8.self) + "\n"
    }
}
