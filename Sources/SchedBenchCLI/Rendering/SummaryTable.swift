import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// The human-readable table printed at the end of a run: one line per case, medians with
/// the 95% interval of ns/event, and any correctness failure.
enum SummaryTable {
    static func render(_ results: [CaseResult]) -> String {
        var rows: [[String]] = [
            ["workload", "scheduler", "strategy", "p", "events", "events/s", "ns/event [95% CI]", "p99 latency", "allocs/ev", "check"]
        ]
        for result in results {
            let c = result.benchCase
            let nanos = Statistics.median(result.values(.nsPerEvent))
            let interval = Statistics.medianInterval(result.values(.nsPerEvent))
            var check = result.correctnessFailures > 0 ? "FAIL" : "ok"
            if c.workload == .periodicCatchUp, let delivered = Statistics.median(result.values(.ticksDelivered)),
                let expected = result.values(.ticksExpected).first, expected > 0
            {
                check += String(format: " %.1f%% ticks", 100 * delivered / expected)
            }
            rows.append([
                c.workload.rawValue, c.scheduler.rawValue, c.strategy.rawValue, String(c.producers), String(c.events),
                Statistics.median(result.values(.eventsPerSec)).map { format($0) } ?? "-",
                nanos.map { n in interval.map { "\(format(n)) [\(format($0.low))–\(format($0.high))]" } ?? format(n) } ?? "-",
                Statistics.median(result.values(.latencyP99)).map { formatNanos($0) } ?? "-",
                result.values(.allocsPerEvent).first.map { String(format: "%.2f", $0) } ?? "-",
                check,
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column < 3
                    ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 1e4 { return String(format: "%.0fk", value / 1e3) }
        if value >= 100 { return String(format: "%.0f", value) }
        return String(format: "%.1f", value)
    }

    static func formatNanos(_ value: Double) -> String {
        if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
        if value >= 1e6 { return String(format: "%.2f ms", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1f µs", value / 1e3) }
        return String(format: "%.0f ns", value)
    }
}
