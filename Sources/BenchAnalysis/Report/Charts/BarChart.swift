import BenchChild
import BenchModel
import Foundation

/// Horizontal bars, one per labelled row, coloured by series (a strategy), with the value
/// written at each bar's end. Rows may hold several bars (grouped), such as ticks due and
/// ticks delivered. Log scale when the values span more than 100×.
struct BarChart {
    struct Bar {
        var series: String
        var color: String
        var value: Double
    }

    struct Row {
        var label: String
        var bars: [Bar]
    }

    var title: String
    var valueLabel: String
    var format: ValueFormat
    var rows: [Row]

    static let width = 640.0
    static let labelWidth = 290.0

    func render(id: String) -> String {
        let barHeight = 12.0
        let (bottom, right) = (46.0, 70.0)
        var legend: [(String, String)] = []
        for bar in rows.flatMap(\.bars) where !legend.contains(where: { $0.0 == bar.series }) { legend.append((bar.series, bar.color)) }
        // However many rows the legend wraps into, the bars start below its last one.
        let top = LineChart.plotTop(below: LineChart.legendBottom(legend.map(\.0), width: Self.width, x: Self.labelWidth, y: 36))
        let rowHeight = Double(max(1, rows.map(\.bars.count).max() ?? 1)) * (barHeight + 2) + 8
        let height = top + Double(rows.count) * rowHeight + bottom
        let values = rows.flatMap { $0.bars.map(\.value) }
        let scale = ChartScale.fitting(values, from: Self.labelWidth, to: Self.width - right, logBeyond: 100, binary: format == .bytes)
        var svg = SVGDocument(width: Self.width, height: height)
        svg.text(title, x: 8, y: 18, size: 13, weight: "600")
        LineChart.legend(legend, into: &svg, x: Self.labelWidth, y: 36)
        let plotBottom = height - bottom
        LineChart.axes(x: scale, y: nil, xFormat: format, yFormat: format, xLabel: valueLabel, yLabel: "", into: &svg, top: top, bottom: plotBottom)
        for (index, row) in rows.enumerated() {
            let rowTop = top + Double(index) * rowHeight + 4
            svg.text(Self.shortened(row.label), x: Self.labelWidth - 8, y: rowTop + rowHeight / 2, anchor: .end, size: 10)
            for (barIndex, bar) in row.bars.enumerated() {
                let y = rowTop + Double(barIndex) * (barHeight + 2)
                let start = scale.kind == .logarithmic ? scale.from : scale.position(0)
                let end = scale.position(bar.value)
                svg.rect(
                    x: start, y: y, width: end - start, height: barHeight, fill: bar.color,
                    tooltip: "\(row.label) — \(bar.series): \(format.string(bar.value))")
                svg.text(format.string(bar.value), x: end + 4, y: y + barHeight - 2, size: 9.5, fill: Palette.axis)
            }
        }
        let description =
            "\(valueLabel) per case: "
            + rows.map { row in "\(row.label): " + row.bars.map { "\($0.series) \(format.string($0.value))" }.joined(separator: ", ") }
            .prefix(12).joined(separator: "; ")
        return svg.render(id: id, title: title, description: description)
    }

    /// Labels longer than the label column keep their start (the workload) and their end
    /// (what tells the cases apart) and lose their middle; the bar's tooltip has them whole.
    static func shortened(_ label: String, limit: Int = 50) -> String {
        guard label.count > limit else { return label }
        let head = (limit - 1) / 2
        return label.prefix(head) + "…" + label.suffix(limit - 1 - head)
    }
}
