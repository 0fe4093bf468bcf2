import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Renders a `Comparison` for people: an aligned table (terminal) or Markdown (CI job
/// summaries). Tools read `comparison.csv` (`ComparisonFile`).
enum ComparisonRendering {
    enum Format: String, CaseIterable {
        case table, markdown, csv
    }

    static func render(_ comparison: Comparison, format: Format) throws -> String {
        switch format {
        // Printed with `print`, which ends the last row's line itself.
        case .csv: return String(try ComparisonFile.render(comparison).dropLast())
        case .table, .markdown: return text(comparison, markdown: format == .markdown)
        }
    }

    /// One line per verdict count, then the rows (changes first), then one-sided cases and
    /// correctness failures.
    private static func text(_ comparison: Comparison, markdown: Bool) -> String {
        var lines: [String] = []
        let counts = Comparison.Verdict.allCases.map { "\(comparison.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let verdict = comparison.verdict.rawValue
        let how =
            (comparison.method == .familyWise
                ? "family-wise over \(comparison.hypotheses) tests (Holm), \(percent(Comparison.decisionConfidence)) confidence"
                : "per row, \(percent(Comparison.decisionConfidence)) confidence each")
            + (comparison.paired ? ", trials paired by round" : "")
        let against = comparison.baseline == .history ? " against the history" : ""
        lines.append(
            markdown ? "**schedbench compare\(against): \(verdict)** (\(how)): \(counts)" : "compare\(against): \(verdict) (\(how)): \(counts)")
        lines.append("")
        let baseColumn = comparison.baseline == .history ? "window (runs)" : "base"
        let header = ["workload", "scheduler", "strategy", "p", "events", "metric", baseColumn, "new", "change [90% bounds]", "limit", "verdict"]
        let order: [Comparison.Verdict] = [.regressed, .inconclusive, .improved, .unchanged]
        let sorted = comparison.rows.enumerated().sorted { lhs, rhs in
            let (l, r) = (order.firstIndex(of: lhs.element.verdict)!, order.firstIndex(of: rhs.element.verdict)!)
            return l != r ? l < r : lhs.offset < rhs.offset
        }.map(\.element)
        let body = sorted.map { row -> [String] in
            let c = row.benchCase
            let (base, new) = medians(row.baseMedian, row.newMedian)
            return [
                c.workload.rawValue, c.scheduler.rawValue, c.strategy.rawValue, String(c.producers), String(c.events),
                row.metric.rawValue,
                comparison.baseline == .history ? "\(base) (\(row.baseRuns))" : base,
                new, change(row.estimate),
                limit(row), verdictCell(row, markdown: markdown),
            ]
        }
        if markdown {
            lines.append("| " + header.joined(separator: " | ") + " |")
            lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
            lines += body.map { "| " + $0.joined(separator: " | ") + " |" }
        } else {
            let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
            for row in [header] + body {
                lines.append(
                    row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                        .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            }
        }
        if comparison.paired && !body.isEmpty {
            lines.append("")
            lines.append(
                "base and new are each side's median; the change is the mean of the rounds' NEW ÷ BASE ratios (geometric), "
                    + "so it can differ from the ratio of the two medians")
        }
        if !comparison.onlyInBase.isEmpty || !comparison.onlyInNew.isEmpty {
            lines.append("")
            lines += comparison.onlyInBase.map { "only in BASE: \($0)" }
            let notInBase = comparison.baseline == .history ? "no comparable run in the history" : "only in NEW"
            lines += comparison.onlyInNew.map { "\(notInBase): \($0)" }
        }
        for failure in comparison.correctnessFailures {
            lines.append(
                "correctness failure in NEW: \(failure.benchCase): \(number(failure.violations)) invariant violations, "
                    + "\(number(failure.leaked)) leaked resources")
            lines += ViolationRendering.lines(failure.samples, indent: "    ")
        }
        return lines.joined(separator: "\n")
    }

    /// The threshold the row was judged by, marked where the case's noise floor raised it.
    private static func limit(_ row: Comparison.Row) -> String {
        let raised = row.noiseFloor.map { $0 >= row.threshold } ?? false
        return "±" + percent(row.threshold) + (raised ? " (noise floor)" : "")
    }

    /// The verdict; an inconclusive row adds the smallest change its noise would have shown.
    private static func verdictCell(_ row: Comparison.Row, markdown: Bool) -> String {
        switch row.verdict {
        case .regressed: return markdown ? "**regressed**" : "regressed"
        case .inconclusive:
            if let unstable = row.unstableRepeat {
                return "inconclusive (unstable count: two counts of one build, in two processes, differed by \(percent(unstable)), "
                    + "more than \(percent(row.threshold * Comparison.repeatLimit)))"
            }
            if row.estimator == .single { return "inconclusive (one value a side: no interval)" }
            if row.estimator == .windowRange { return "inconclusive (past every run of the window: one count a run is not judged)" }
            guard let detectable = row.detectableChange else { return "inconclusive" }
            // Past 10× worse (the largest threshold a file may set) a number says nothing more.
            guard detectable <= Thresholds.maximum else { return "inconclusive (too noisy to detect even 10× worse)" }
            return "inconclusive (detects ≥ \(String(format: "%.1f%%", detectable * 100)) worse)"
        default: return row.verdict.rawValue
        }
    }

    /// Both medians as `number` writes them; where that would print two different values
    /// alike ("111" and "111"), with as many significant digits as tell them apart (up to 6).
    static func medians(_ base: Double, _ new: Double) -> (String, String) {
        var (baseText, newText) = (number(base), number(new))
        var digits = 4
        while baseText == newText && base != new && digits <= 6 {
            (baseText, newText) = (String(format: "%.\(digits)g", base), String(format: "%.\(digits)g", new))
            digits += 1
        }
        return (baseText, newText)
    }

    private static func number(_ value: Double) -> String {
        if value == 0 { return "0" }
        if abs(value) >= 1e6 { return String(format: "%.3gM", value / 1e6) }
        if abs(value) >= 100 { return String(format: "%.0f", value) }
        return String(format: "%.3g", value)
    }

    private static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }

    private static func change(_ estimate: RatioEstimate?) -> String {
        guard let estimate else { return "no ratio" }
        let signed = { (ratio: Double) in String(format: "%+.1f%%", (ratio - 1) * 100) }
        if estimate.low == estimate.high { return signed(estimate.ratio) }
        return "\(signed(estimate.ratio)) [\(signed(estimate.low)), \(signed(estimate.high))]"
    }
}
