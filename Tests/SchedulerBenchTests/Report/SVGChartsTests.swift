import XCTest

@testable import SchedulerBench

/// The charts' SVG: accessible titles, axis labels with units, legends, tooltips, escaping.
final class SVGChartsTests: XCTestCase {
    func testTextIsEscaped() {
        XCTAssertEqual(SVGDocument.escape(#"<a & "b" 'c'>"#), "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;")
        var svg = SVGDocument(width: 10, height: 10)
        svg.text("p<1 & q>2", x: 1, y: 1)
        let text = svg.render(id: "x", title: "A & B", description: "<d>")
        XCTAssertTrue(text.contains("p&lt;1 &amp; q&gt;2"))
        XCTAssertTrue(text.contains(#"<title id="x-title">A &amp; B</title>"#))
        XCTAssertTrue(text.contains(#"<desc id="x-desc">&lt;d&gt;</desc>"#))
        XCTAssertTrue(text.contains(#"role="img" aria-labelledby="x-title x-desc""#))
    }

    func testALineChartHasAxesLegendBandsAndTooltips() {
        let chart = LineChart(
            title: "throughput", xLabel: "producers (threads)", yLabel: "throughput (events/s)", xFormat: .count, yFormat: .count,
            series: [
                LineChart.Series(
                    name: "drain", color: Palette.color(.drain),
                    points: [.init(x: 1, y: 1e6, low: 9e5, high: 1.1e6), .init(x: 4, y: 2e6, low: 1.8e6, high: 2.2e6)]),
                LineChart.Series(name: "reference", color: Palette.color(.reference), points: [.init(x: 1, y: 5e5), .init(x: 4, y: 4e5)]),
            ])
        let svg = chart.render(id: "c1")
        XCTAssertTrue(svg.contains(">producers (threads)</text>"))
        XCTAssertTrue(svg.contains(">throughput (events/s)</text>"))
        XCTAssertTrue(svg.contains(#"class="legend">drain</text>"#))
        XCTAssertTrue(svg.contains(#"class="legend">reference</text>"#))
        XCTAssertEqual(svg.components(separatedBy: "<polygon").count - 1, 1, "one band: only drain has intervals")
        XCTAssertEqual(svg.components(separatedBy: "<polyline").count - 1, 2)
        XCTAssertTrue(svg.contains("<title>drain: 4 → 2M [1.8M, 2.2M]</title>"), svg)
        XCTAssertTrue(svg.contains(">2M</text>"), "a tick label in the y axis's unit")
    }

    func testTheSameStrategyHasTheSameColourEverywhere() {
        XCTAssertEqual(Palette.color(.drain), Palette.color(.drain))
        XCTAssertEqual(Set(StrategyName.allCases.map(Palette.color)).count, StrategyName.allCases.count, "every strategy its own colour")
    }

    func testABarChartLabelsEachRowAndValue() {
        let chart = BarChart(
            title: "Allocations per event", valueLabel: "allocations/event", format: .count,
            rows: [
                .init(label: "observeOn.throughput serial/drain", bars: [.init(series: "drain", color: Palette.color(.drain), value: 0.1)]),
                .init(label: "observeOn.throughput serial/reference", bars: [.init(series: "reference", color: Palette.color(.reference), value: 5)]),
            ])
        let svg = chart.render(id: "b")
        XCTAssertTrue(svg.contains(">observeOn.throughput serial/reference</text>"))
        XCTAssertTrue(svg.contains(">allocations/event</text>"))
        XCTAssertTrue(svg.contains(">0.1</text>") && svg.contains(">5</text>"))
        XCTAssertEqual(svg.components(separatedBy: "<rect").count - 1, 4, "two bars and two legend swatches")
        XCTAssertEqual(BarChart.shortened(String(repeating: "x", count: 60)).count, 50)
    }

    func testAForestPlotPutsWorseToTheRight() {
        let plot = ForestPlot(
            title: "Change",
            rows: [
                .init(label: "slower", worse: 1.2, low: 1.1, high: 1.3, threshold: 0.05, verdict: .regressed),
                .init(label: "faster", worse: 0.8, low: 0.75, high: 0.85, threshold: 0.05, verdict: .improved),
            ])
        let svg = plot.render(id: "f")
        func cx(_ label: String) -> Double {
            let marker = svg.components(separatedBy: "<title>\(label):")[0]
            let circle = marker.components(separatedBy: "<circle cx=\"").last!
            return Double(circle.prefix { $0 != "\"" })!
        }
        XCTAssertGreaterThan(cx("slower"), cx("faster"))
        XCTAssertTrue(svg.contains(">regressed</text>") && svg.contains(">improved</text>"))
        XCTAssertTrue(svg.contains(">+20.0%</text>") || svg.contains(">+10.0%</text>"), "ticks are changes")
        let axis = ForestPlot.SymmetricLogAxis(reach: 0.2, from: 0, to: 100)
        XCTAssertEqual(axis.position(1), 50, accuracy: 1e-9)
        XCTAssertTrue(axis.ticks.contains(1))
    }
}
