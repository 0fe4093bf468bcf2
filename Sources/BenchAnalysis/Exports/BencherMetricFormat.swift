import BenchChild
import BenchModel
import Foundation

/// Bencher Metric Format (BMF) JSON, which `bencher run --adapter json` reads: each case is
/// a benchmark, each metric a measure with the median as `value` and the 95% interval for
/// the median as `lower_value` and `upper_value` (left out for single values). Keys sorted,
/// so the same run exports the same bytes.
enum BencherMetricFormat {
    private struct Measure: Encodable {
        var value: Double
        var lowerValue: Double?
        var upperValue: Double?

        enum CodingKeys: String, CodingKey {
            case value
            case lowerValue = "lower_value"
            case upperValue = "upper_value"
        }
    }

    static func render(_ entries: [Export.Entry]) throws -> String {
        var benchmarks: [String: [String: Measure]] = [:]
        for entry in entries {
            benchmarks[entry.benchmarkName, default: [:]][entry.metric.rawValue] = Measure(
                value: entry.median, lowerValue: entry.interval?.low, upperValue: entry.interval?.high)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(benchmarks), as: UTF8.self) + "\n"
    }
}
