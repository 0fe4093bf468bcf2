import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ChartScaleTests: XCTestCase {
    func testLinearTicksAreRoundSteps() {
        let scale = ChartScale(kind: .linear, low: 0, high: 1_000_000, from: 0, to: 100)
        XCTAssertEqual(scale.ticks, [0, 200_000, 400_000, 600_000, 800_000, 1_000_000])
        XCTAssertEqual(scale.position(500_000), 50)
        XCTAssertEqual(scale.position(-5), 0, "clamped")
        XCTAssertEqual(ChartScale.niceStep(0.7), 1)
        XCTAssertEqual(ChartScale.niceStep(1.4), 2)
        XCTAssertEqual(ChartScale.niceStep(3), 5)
        XCTAssertEqual(ChartScale.niceCeiling(2_100_000), 2_500_000)
    }

    func testAYAxisGrowsUpward() {
        let scale = ChartScale(kind: .linear, low: 0, high: 10, from: 300, to: 50)
        XCTAssertEqual(scale.position(0), 300)
        XCTAssertEqual(scale.position(10), 50)
    }

    func testLogScalesSpanWholeDecades() {
        let scale = ChartScale(kind: .logarithmic, low: 3, high: 4_000, from: 0, to: 400)
        XCTAssertEqual(scale.low, 1)
        XCTAssertEqual(scale.high, 10_000)
        XCTAssertEqual(scale.ticks, [1, 10, 100, 1_000, 10_000])
        XCTAssertEqual(scale.position(100), 200, accuracy: 1e-9)
        XCTAssertEqual(ChartScale(kind: .logarithmic, low: 2, high: 50, from: 0, to: 1).ticks, [1, 2, 5, 10, 20, 50, 100])
    }

    func testTheDataDecidesBetweenLinearAndLog() {
        XCTAssertEqual(ChartScale.fitting([10, 200], from: 0, to: 1).kind, .linear)
        XCTAssertEqual(ChartScale.fitting([10, 20_000], from: 0, to: 1).kind, .logarithmic)
        XCTAssertEqual(ChartScale.fitting([0, 20_000], from: 0, to: 1).kind, .linear, "a zero cannot go on a log axis")
    }

    /// HdrHistogram's percentile axis: 90, 99, 99.9, … evenly spaced.
    func testPercentilesAreEvenlySpacedInTheTail() {
        let scale = ChartScale(kind: .percentile, low: 0, high: 99.999, from: 0, to: 500)
        XCTAssertEqual(scale.ticks, [50, 90, 99, 99.9, 99.99, 99.999])
        let step = scale.position(99) - scale.position(90)
        XCTAssertEqual(scale.position(99.9) - scale.position(99), step, accuracy: 1e-6)
        XCTAssertEqual(scale.position(99.99) - scale.position(99.9), step, accuracy: 1e-6)
        XCTAssertEqual(scale.position(0), 0)
    }

    func testValuesAreWrittenInTheirUnits() {
        XCTAssertEqual(ValueFormat.nanoseconds.string(850), "850 ns")
        XCTAssertEqual(ValueFormat.nanoseconds.string(1_250), "1.25 µs")
        XCTAssertEqual(ValueFormat.nanoseconds.string(3_400_000), "3.4 ms")
        XCTAssertEqual(ValueFormat.microseconds.string(2_000), "2 ms")
        XCTAssertEqual(ValueFormat.count.string(12_500), "12.5k")
        XCTAssertEqual(ValueFormat.count.string(2_000_000), "2M")
        XCTAssertEqual(ValueFormat.count.string(0.0678), "0.0678")
        XCTAssertEqual(ValueFormat.bytes.string(47_300_000), "45.1 MiB")
        XCTAssertEqual(ValueFormat.change.string(1.12), "+12.0%")
        XCTAssertEqual(ValueFormat.change.string(0.965), "−3.5%")
        XCTAssertEqual(ValueFormat.percentile.string(99.9), "99.9%")
        XCTAssertEqual(ValueFormat.percentile.string(50), "50%")
    }
}
