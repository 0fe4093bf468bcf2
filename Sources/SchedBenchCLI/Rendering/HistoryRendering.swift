import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `history list` and `history trend` for people: aligned tables, a sparkline per series,
/// testbeds as short labels with a legend below.
enum HistoryRendering {
    static func runs(_ runs: [History.StoredRun]) -> String {
        guard !runs.isEmpty else { return "no runs stored" }
        let header = ["run", "started", "commit", "suite", "cases", "host", "testbed"]
        let body = runs.map { [$0.runID, $0.startedAt, $0.commit, $0.suite, String($0.cases), $0.host, label($0.testbed)].map(TerminalText.visible) }
        return (table([header] + body) + ["", "\(runs.count) runs"] + legend(runs.map(\.testbed))).joined(separator: "\n")
    }

    static func trend(_ series: [History.TrendSeries], metric: Metric, last: Int) -> String {
        var lines: [String] = []
        for one in series {
            let points = Array(one.points.suffix(last))
            let c = one.benchCase
            lines.append("\(c) — \(metric.rawValue) (\(metric.unit)), testbed \(label(one.testbed)), \(points.count) of \(one.points.count) runs")
            lines.append("  " + Sparkline.render(points.map(\.value)) + "  " + direction(metric))
            var previous: Double?
            let body = points.map { point -> [String] in
                defer { previous = point.value }
                let change = previous.flatMap { $0 > 0 ? String(format: "%+.1f%%", (point.value / $0 - 1) * 100) : nil } ?? ""
                return [point.startedAt, point.commit, point.runID, number(point.value), change].map(TerminalText.visible)
            }
            lines += table([["started", "commit", "run", "median", "vs previous"]] + body).map { "  " + $0 }
            lines.append("")
        }
        return (lines + legend(series.map(\.testbed))).joined(separator: "\n")
    }

    private static func direction(_ metric: Metric) -> String {
        metric.higherIsBetter ? "(higher is better)" : "(lower is better)"
    }

    /// A short, stable name for a testbed: the first 8 hex digits of its FNV-1a hash.
    static func label(_ testbed: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in testbed.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return String(format: "%08x", hash)
    }

    private static func legend(_ testbeds: [String]) -> [String] {
        var seen = Set<String>()
        let unique = testbeds.filter { seen.insert($0).inserted }
        return ["testbeds:"] + unique.map { "  \(label($0)): \(TerminalText.visible($0))" }
    }

    private static func table(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
    }

    private static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.4g", value)
    }
}

/// Values as a line of block characters, lowest ▁ to highest █ (linear between the series'
/// minimum and maximum; a flat series is all ▄).
enum Sparkline {
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func render(_ values: [Double]) -> String {
        guard let low = values.min(), let high = values.max() else { return "" }
        guard high > low else { return String(repeating: levels[3], count: values.count) }
        return String(
            values.map { value in
                levels[min(levels.count - 1, Int(((value - low) / (high - low) * Double(levels.count - 1)).rounded()))]
            })
    }
}
