import BenchChild
import BenchModel
import Foundation

/// A comparison at a glance: one row per case × metric, the ratio NEW/BASE as a point with
/// its 95% interval on a log axis centred on 1, the row's threshold as a grey band, coloured
/// by verdict. Read "worse" to the right for costs; for metrics where higher is better the
/// row is drawn as BASE/NEW, so right is worse on every row.
struct ForestPlot {
    struct Row {
        var label: String
        /// "How many times worse" (NEW/BASE for costs, BASE/NEW where higher is better).
        var worse: Double
        var low: Double
        var high: Double
        var threshold: Double
        var verdict: Comparison.Verdict
    }

    var title: String
    var rows: [Row]

    static let width = 760.0
    static let labelWidth = 330.0

    func render(id: String) -> String {
        let (top, bottom, right, rowHeight) = (54.0, 46.0, 110.0, 16.0)
        let height = top + Double(rows.count) * rowHeight + bottom
        let extent = rows.flatMap { [$0.low, $0.high, 1 + $0.threshold, 1 / (1 + $0.threshold)] }.filter { $0 > 0 && $0.isFinite }
        let reach = max(extent.map { abs(log10($0)) }.max() ?? 0.1, 0.05) * 1.1
        // Not a ChartScale: that rounds a log axis to whole decades; this one keeps the data's reach.
        let axis = SymmetricLogAxis(reach: reach, from: Self.labelWidth, to: Self.width - right)
        var svg = SVGDocument(width: Self.width, height: height)
        svg.text(title, x: 8, y: 18, size: 13, weight: "600")
        LineChart.legend(
            Comparison.Verdict.allCases.map { ($0.rawValue, Palette.color($0)) } + [("threshold", Palette.band)], into: &svg, x: Self.labelWidth,
            y: 36)
        let plotBottom = height - bottom
        for tick in axis.ticks {
            let x = axis.position(tick)
            svg.line(x1: x, y1: top, x2: x, y2: plotBottom, stroke: Palette.grid)
            svg.text(ValueFormat.change.string(tick), x: x, y: plotBottom + 16, anchor: .middle, size: 10, fill: Palette.axis)
        }
        svg.line(x1: axis.position(1), y1: top, x2: axis.position(1), y2: plotBottom, stroke: Palette.axis)
        svg.line(x1: Self.labelWidth, y1: plotBottom, x2: Self.width - right, y2: plotBottom, stroke: Palette.axis)
        svg.text(
            "change, worse → (95% interval; log scale)", x: (Self.labelWidth + Self.width - right) / 2, y: plotBottom + 34, anchor: .middle, size: 11,
            className: "axis-label")
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight + rowHeight / 2
            let limit = 1 + row.threshold
            svg.rect(
                x: axis.position(1 / limit), y: y - 6, width: axis.position(limit) - axis.position(1 / limit), height: 12, fill: Palette.band,
                opacity: 0.45)
            svg.text(BarChart.shortened(row.label, limit: 56), x: Self.labelWidth - 8, y: y + 3.5, anchor: .end, size: 10)
            let color = Palette.color(row.verdict)
            svg.line(x1: axis.position(row.low), y1: y, x2: axis.position(row.high), y2: y, stroke: color, width: 2)
            svg.circle(
                x: axis.position(row.worse), y: y, radius: 3.5, fill: color,
                tooltip:
                    "\(row.label): \(ValueFormat.change.string(row.worse)) worse [\(ValueFormat.change.string(row.low)), \(ValueFormat.change.string(row.high))], threshold ±\(String(format: "%.1f%%", row.threshold * 100)): \(row.verdict.rawValue)"
            )
            svg.text(row.verdict.rawValue, x: Self.width - right + 8, y: y + 3.5, size: 10, fill: color)
        }
        let description =
            "Change per case and metric, worse to the right: "
            + rows.map { "\($0.label) \(ValueFormat.change.string($0.worse)) (\($0.verdict.rawValue))" }.joined(separator: "; ")
        return svg.render(id: id, title: title, description: description)
    }

    /// A log axis from 10^−reach to 10^reach with ticks at round percentages.
    struct SymmetricLogAxis {
        let reach: Double
        let from: Double
        let to: Double

        func position(_ ratio: Double) -> Double {
            let value = min(max(log10(max(ratio, 1e-12)), -reach), reach)
            return from + (value + reach) / (2 * reach) * (to - from)
        }

        var ticks: [Double] {
            let candidates = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50]
            let step = candidates.first { log10(1 + $0) >= reach / 3 } ?? 50
            var ticks = [1.0]
            var up = 1 + step
            while log10(up) <= reach {
                ticks += [up, 1 / up]
                up *= 1 + step
            }
            return ticks.sorted()
        }
    }
}
