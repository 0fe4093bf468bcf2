import BenchChild
import BenchModel
import Foundation

/// Lines over an x axis, one per series, each point with an optional interval drawn as a
/// band; a legend on top; optional vertical markers (a named x, such as the highest rate
/// that kept p99 under its limit) and a horizontal limit line.
struct LineChart {
    struct Point {
        var x: Double
        var y: Double
        var low: Double? = nil
        var high: Double? = nil
    }

    struct Series {
        var name: String
        var color: String
        var points: [Point]
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var xFormat: ValueFormat
    var yFormat: ValueFormat
    /// `percentile` for latency distributions; otherwise linear or log, as the data spans.
    var xKind: ChartScale.Kind? = nil
    var series: [Series]
    var markers: [(x: Double, label: String)] = []
    var limit: (y: Double, label: String)? = nil

    static let width = 640.0
    static let height = 360.0

    func render(id: String) -> String {
        let (left, right, bottom) = (76.0, 20.0, 48.0)
        let top = Self.plotTop(below: Self.legendBottom(series.map(\.name), width: Self.width, x: left, y: 36))
        let plotBottom = Self.height - bottom
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { $0.points.flatMap { [$0.y, $0.low ?? $0.y, $0.high ?? $0.y] } } + (limit.map { [$0.y] } ?? [])
        let xScale: ChartScale =
            xKind.map { ChartScale(kind: $0, low: xs.min() ?? 0, high: xs.max() ?? 1, from: left, to: Self.width - right) }
            ?? Self.exactScale(xs, from: left, to: Self.width - right, wholeNumbers: xFormat == .wholeCount)
        let yScale = ChartScale.fitting(ys, from: plotBottom, to: top, binary: yFormat == .bytes)
        var svg = SVGDocument(width: Self.width, height: Self.height)
        svg.text(title, x: left, y: 18, size: 13, weight: "600")
        Self.legend(series.map { ($0.name, $0.color) }, into: &svg, x: left, y: 36)
        Self.axes(x: xScale, y: yScale, xFormat: xFormat, yFormat: yFormat, xLabel: xLabel, yLabel: yLabel, into: &svg, top: top, bottom: plotBottom)
        if let limit {
            let y = yScale.position(limit.y)
            svg.line(x1: left, y1: y, x2: Self.width - right, y2: y, stroke: "#C0392B", dashed: true)
            svg.text(limit.label, x: Self.width - right - 4, y: y - 4, anchor: .end, size: 10, fill: "#C0392B")
        }
        for marker in markers {
            let x = xScale.position(marker.x)
            svg.line(x1: x, y1: top, x2: x, y2: plotBottom, stroke: "#1E8449", dashed: true)
            svg.text(marker.label, x: x + 4, y: top + 12, size: 10, fill: "#1E8449")
        }
        for one in series {
            let banded = one.points.filter { $0.low != nil && $0.high != nil }
            if banded.count >= 2 {
                svg.polygon(
                    banded.map { (xScale.position($0.x), yScale.position($0.high!)) }
                        + banded.reversed().map { (xScale.position($0.x), yScale.position($0.low!)) },
                    fill: one.color, opacity: 0.18)
            }
            svg.polyline(one.points.map { (xScale.position($0.x), yScale.position($0.y)) }, stroke: one.color)
            for point in one.points {
                var detail = "\(one.name): \(xFormat.string(point.x)) → \(yFormat.string(point.y))"
                if let low = point.low, let high = point.high { detail += " [\(yFormat.string(low)), \(yFormat.string(high))]" }
                svg.circle(
                    x: xScale.position(point.x), y: yScale.position(point.y), radius: one.points.count > 30 ? 1.5 : 3, fill: one.color,
                    tooltip: detail)
            }
        }
        let description =
            "\(yLabel) against \(xLabel); "
            + series.map { "\($0.name): " + $0.points.map { "\(xFormat.string($0.x)) → \(yFormat.string($0.y))" }.prefix(8).joined(separator: ", ") }
            .joined(separator: "; ")
        return svg.render(id: id, title: title, description: description)
    }

    /// An x axis over exactly the data's range: linear, or log when it spans over 20×
    /// (producers 1 … 64, rates 100 … 50,000).
    /// With `wholeNumbers` (threads, producers) a linear axis has ticks at whole numbers only.
    static func exactScale(_ values: [Double], from: Double, to: Double, wholeNumbers: Bool = false) -> ChartScale {
        let low = values.min() ?? 0
        let high = values.max() ?? 1
        let kind: ChartScale.Kind = low > 0 && high / low > 20 ? .logarithmic : .linear
        return ChartScale(kind: kind, low: low, high: high, from: from, to: to, step: wholeNumbers ? .whole : .decimal)
    }

    /// Swatches and names in a row (wrapping), as every chart shows its series.
    static func legend(_ entries: [(name: String, color: String)], into svg: inout SVGDocument, x: Double, y: Double) {
        let places = legendPlaces(entries.map(\.name), width: svg.width, x: x, y: y)
        for (entry, place) in zip(entries, places) {
            svg.rect(x: place.x, y: place.y - 8, width: 12, height: 8, fill: entry.color)
            svg.text(entry.name, x: place.x + 16, y: place.y, size: 10.5, className: "legend")
        }
    }

    /// The baseline of a legend's last row, as `legend` draws it, so a chart can start its
    /// plot below it however many rows the names take.
    static func legendBottom(_ names: [String], width: Double, x: Double, y: Double) -> Double {
        legendPlaces(names, width: width, x: x, y: y).last?.y ?? y
    }

    /// Where each name of a legend goes: in a row from `x`, wrapping onto a new row 14
    /// pixels lower where the next would pass the chart's right edge.
    private static func legendPlaces(_ names: [String], width: Double, x: Double, y: Double) -> [(x: Double, y: Double)] {
        var cursor = x
        var row = y
        return names.map { name in
            let entry = legendWidth(name)
            if cursor + entry > width - 10 && cursor > x {
                cursor = x
                row += 14
            }
            defer { cursor += entry }
            return (cursor, row)
        }
    }

    private static func legendWidth(_ name: String) -> Double { 22 + Double(name.count) * 6.4 }

    /// Where a plot starts below a legend whose last row is at `legendBottom`.
    static func plotTop(below legendBottom: Double) -> Double { max(54, legendBottom + 18) }

    /// Gridlines, tick labels and axis labels (with units) for a plot between `top` and `bottom`.
    /// Without `y` (bar charts, whose rows are labelled instead), only the x axis is drawn.
    static func axes(
        x: ChartScale, y: ChartScale?, xFormat: ValueFormat, yFormat: ValueFormat, xLabel: String, yLabel: String,
        into svg: inout SVGDocument, top: Double, bottom: Double
    ) {
        for tick in y?.ticks ?? [] {
            let position = y!.position(tick)
            svg.line(x1: x.from, y1: position, x2: x.to, y2: position, stroke: Palette.grid)
            svg.text(yFormat.string(tick), x: x.from - 6, y: position + 3.5, anchor: .end, size: 10, fill: Palette.axis)
        }
        for tick in x.ticks {
            let position = x.position(tick)
            svg.line(x1: position, y1: bottom, x2: position, y2: bottom + 4, stroke: Palette.axis)
            svg.text(xFormat.string(tick), x: position, y: bottom + 16, anchor: .middle, size: 10, fill: Palette.axis)
        }
        svg.line(x1: x.from, y1: bottom, x2: x.to, y2: bottom, stroke: Palette.axis)
        svg.line(x1: x.from, y1: top, x2: x.from, y2: bottom, stroke: Palette.axis)
        svg.text(xLabel, x: (x.from + x.to) / 2, y: bottom + 34, anchor: .middle, size: 11, className: "axis-label")
        if y != nil { svg.text(yLabel, x: 14, y: (top + bottom) / 2, anchor: .middle, size: 11, rotated: true, className: "axis-label") }
    }
}
