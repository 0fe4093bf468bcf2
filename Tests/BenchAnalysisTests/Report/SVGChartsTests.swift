import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

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
        XCTAssertEqual(Set(StrategyName.listingOrder.map(Palette.color)).count, StrategyName.listingOrder.count, "every strategy its own colour")
    }

    /// Defect: the Reports article called drain orange; the palette draws it green. The
    /// article's colour words are checked against the palette.
    func testTheReportsArticleNamesTheColoursThePaletteDraws() throws {
        let article = try String(
            contentsOf: Repository.file("Sources/SchedulerBench/SchedulerBench.docc/Reports.md"),
            encoding: .utf8
        ).replacingOccurrences(of: "\n", with: " ")
        let names = ["#0072B2": "blue", "#E69F00": "orange", "#009E73": "green"]
        for strategy in [StrategyName.reference, .referenceGeneric, .drain] {
            let colour = try XCTUnwrap(names[Palette.color(strategy)])
            XCTAssertTrue(
                article.contains("`\(strategy.rawValue)` is always \(colour)") || article.contains("`\(strategy.rawValue)` \(colour)"),
                "the article should call \(strategy.rawValue) \(colour)")
        }
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

    /// Defect: a long case label lost its start (the workload); it now loses its middle.
    func testALongLabelKeepsItsStartAndItsEnd() {
        let label = "observeOn.throughput concurrentMain/referenceGeneric p=8 n=1000000 1024 B"
        let short = BarChart.shortened(label)
        XCTAssertEqual(short.count, 50)
        XCTAssertTrue(short.hasPrefix("observeOn.throughput"), short)
        XCTAssertTrue(short.hasSuffix("n=1000000 1024 B"), short)
        XCTAssertTrue(short.contains("…"), short)
    }

    /// Defect: a legend that wrapped onto a third row was drawn over the first bar.
    func testABarChartStartsItsBarsBelowItsLegendHoweverItWraps() throws {
        let strategies = StrategyName.listingOrder.filter { $0 != .none }
        let chart = BarChart(
            title: "Peak resident memory", valueLabel: "RSS", format: .bytes,
            rows: strategies.map { .init(label: "observeOn.throughput serial/\($0.rawValue)", bars: [.init(series: $0.rawValue, color: Palette.color($0), value: 40e6)]) })
        let svg = chart.render(id: "r")
        let legendRows = Set(Self.numbers(in: svg, after: #"class="legend""#, attribute: "y"))
        XCTAssertGreaterThanOrEqual(legendRows.count, 3, "the legend wraps into three rows or more")
        let lastLegendRow = try XCTUnwrap(legendRows.max())
        // Bars are the rects without a legend swatch's 8-pixel height.
        let barTops = Self.rects(in: svg).filter { $0.height == 12 }.map(\.y)
        XCTAssertEqual(barTops.count, strategies.count)
        XCTAssertGreaterThan(try XCTUnwrap(barTops.min()), lastLegendRow + 4, "the first bar is below the legend's last row")
    }

    /// Defects: a producers axis showed 1.5 and 2.5 threads; a bytes axis ticked at
    /// 19.1/38.1/57.2 MiB (decimal steps of bytes, written in MiB).
    func testThreadAxesTickAtWholeThreadsAndByteAxesAtRoundUnits() {
        let producers = LineChart.exactScale([1, 2, 3, 4], from: 0, to: 100, wholeNumbers: true)
        XCTAssertEqual(producers.ticks, [1, 2, 3, 4])
        XCTAssertTrue(LineChart.exactScale([1, 2], from: 0, to: 100, wholeNumbers: true).ticks.allSatisfy { $0 == $0.rounded() })
        let rss = ChartScale.fitting([45e6, 60e6, 75e6], from: 0, to: 100, binary: true)
        let mebibytes = rss.ticks.map { $0 / 1_048_576 }
        XCTAssertTrue(mebibytes.allSatisfy { $0 == $0.rounded() && Int($0) % 10 == 0 }, "\(mebibytes)")
        XCTAssertEqual(rss.ticks.map(ValueFormat.bytes.string).last, "\(Int(mebibytes.last!)) MiB")
    }

    private static func numbers(in svg: String, after marker: String, attribute: String) -> [Double] {
        svg.components(separatedBy: "<text").filter { $0.contains(marker) }.compactMap { element in
            guard let range = element.range(of: "\(attribute)=\"") else { return nil }
            return Double(element[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    private static func rects(in svg: String) -> [(y: Double, height: Double)] {
        svg.components(separatedBy: "<rect").dropFirst().compactMap { element in
            func value(_ name: String) -> Double? {
                guard let range = element.range(of: " \(name)=\"") else { return nil }
                return Double(element[range.upperBound...].prefix { $0 != "\"" })
            }
            guard let y = value("y"), let height = value("height") else { return nil }
            return (y, height)
        }
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
