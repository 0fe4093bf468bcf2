import XCTest

@testable import BenchModel

final class StatisticsTests: XCTestCase {
    func testRelativeRangeIsTheRangeOverTheMean() {
        XCTAssertEqual(Statistics.relativeRange([3_300, 3_700, 3_500]), 400.0 / 3_500, accuracy: 1e-12)
        XCTAssertEqual(Statistics.relativeRange([120]), 0)
        XCTAssertEqual(Statistics.relativeRange([]), 0)
        XCTAssertEqual(Statistics.relativeRange([0, 0]), 0, "no mean to divide by")
    }

    func testMedianOfOddAndEvenSamples() {
        XCTAssertEqual(Statistics.median([5, 1, 3]), 3)
        XCTAssertEqual(Statistics.median([4, 1, 3, 2]), 2.5)
        XCTAssertNil(Statistics.median([]))
    }

    func testFiveTrialsGiveMinToMaxAtTheirTrueCoverage() throws {
        let interval = try XCTUnwrap(Statistics.medianInterval([30, 10, 50, 20, 40]))
        XCTAssertEqual(interval.low, 10)
        XCTAssertEqual(interval.high, 50)
        XCTAssertEqual(interval.achievedLevel, 1 - 2.0 / 32, accuracy: 1e-12)
    }

    func testTenTrialsUseTheSecondOrderStatistics() throws {
        // Coverage for rank 2 of 10 is 1 − 2·(1 + 10)/1024 = 97.85%; rank 3 falls to 89%.
        let interval = try XCTUnwrap(Statistics.medianInterval((1...10).map(Double.init)))
        XCTAssertEqual(interval.low, 2)
        XCTAssertEqual(interval.high, 9)
        XCTAssertEqual(interval.achievedLevel, 1 - 22.0 / 1024, accuracy: 1e-12)
    }

    func testIntervalCoversTheMedianAtLeastAsOftenAsClaimed() {
        var generator = SplitMix(seed: 7)
        var covered = 0
        let samples = 2_000
        for _ in 0..<samples {
            // Exponential distribution, median ln 2: skewed, so normal theory would not hold.
            let values = (0..<10).map { _ in -log(1 - generator.nextUnit()) }
            let interval = Statistics.medianInterval(values)!
            if interval.low <= M_LN2 && M_LN2 <= interval.high { covered += 1 }
        }
        XCTAssertGreaterThan(Double(covered) / Double(samples), 0.95)
    }

    func testHarnessOverheadIsTheMedianPairedRatio() throws {
        let overhead = try XCTUnwrap(HarnessOverhead(pairs: [(110, 100), (105, 100), (120, 100), (99, 100), (102, 0)]))
        XCTAssertEqual(overhead.pairs, 4, "a pair with a zero baseline has no ratio")
        XCTAssertEqual(overhead.median, 0.075, accuracy: 1e-12)
        XCTAssertEqual(overhead.low, -0.01, accuracy: 1e-12)
        XCTAssertEqual(overhead.high, 0.20, accuracy: 1e-12)
        XCTAssertNil(HarnessOverhead(pairs: []))
    }
}

/// A tiny deterministic generator for synthetic samples.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
