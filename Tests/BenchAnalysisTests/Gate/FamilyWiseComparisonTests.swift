import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The comparison-level decision: Holm's step-down over every row, and the rates it reaches
/// on synthetic suites (fixed seeds) shaped like the quick suite's observe(on:) cases: 16
/// cases, 10 trials a side, ns/event and events/s per case, 3% noise, a 5% threshold.
final class FamilyWiseComparisonTests: XCTestCase {
    func testAOneSidedPValueMatchesTheBound() throws {
        // "Regressed" per row means the 90% lower bound is past the threshold: p < 0.10.
        var draws = ComparisonTests.SeededNormals(state: 7)
        for _ in 0..<200 {
            let base = draws.trials(10, mean: 1_000, cv: 0.03)
            let new = draws.trials(10, mean: 1_080, cv: 0.03)
            let estimate = try XCTUnwrap(RatioEstimate(base: base, new: new, confidence: 0.90))
            XCTAssertEqual(estimate.low > 1.05, estimate.pValue(ratioAtMost: 1.05) < 0.10)
        }
    }

    /// A suite: `slowdowns[i]` is case i's NEW/BASE; each case has ns/event and events/s.
    static func suite(_ slowdowns: [Double], draws: inout ComparisonTests.SeededNormals, trials: Int = 10, cv: Double = 0.03)
        -> (base: [CaseResult], new: [CaseResult])
    {
        func result(_ index: Int, _ nanos: [Double]) -> CaseResult {
            let benchCase = BenchCase(
                suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
                producers: index + 1, events: 1_000, payloadBytes: 0, rateHz: 0)
            return CaseResult(
                benchCase: benchCase,
                trials: nanos.enumerated().map { trial, value in
                    TrialRecord(benchCase: benchCase, trial: trial + 1, metrics: [.nsPerEvent: value, .eventsPerSec: 1e9 / value])
                })
        }
        let base = slowdowns.indices.map { result($0, draws.trials(trials, mean: 1_000, cv: cv)) }
        let new = slowdowns.enumerated().map { result($0.offset, draws.trials(trials, mean: 1_000 * $0.element, cv: cv)) }
        return (base, new)
    }

    /// Share of `pairs` suites whose comparison says "regressed" (compare would exit 2).
    static func failureRate(_ slowdowns: [Double], method: Comparison.Method, seed: UInt64, pairs: Int = 600, trials: Int = 10) -> Double {
        var draws = ComparisonTests.SeededNormals(state: seed)
        let suites = (0..<pairs).map { _ in suite(slowdowns, draws: &draws, trials: trials) }
        let failed = countInParallel(suites) { base, new in
            let comparison = Comparison(
                base: base, new: new, thresholds: Thresholds(defaultThreshold: 0.05), metrics: [.nsPerEvent, .eventsPerSec], method: method)
            if case .regressed = comparison.decision(baseCases: base.count, newCases: new.count, base: "A", new: "B") { return true }
            return false
        }
        let rate = Double(failed) / Double(pairs)
        print(
            "compare (\(method.rawValue)): \(slowdowns.count) cases, slowdowns \(Set(slowdowns).sorted()): \(trials) trials: exit 2 in \(failed) of \(pairs) suites"
        )
        return rate
    }

    /// Share of `pairs` suites whose comparison's own verdict is "improved".
    static func improvedRate(_ slowdowns: [Double], seed: UInt64, pairs: Int = 600, cv: Double = 0.03) -> Double {
        var draws = ComparisonTests.SeededNormals(state: seed)
        let suites = (0..<pairs).map { _ in suite(slowdowns, draws: &draws, cv: cv) }
        let improved = countInParallel(suites) { base, new in
            Comparison(base: base, new: new, thresholds: Thresholds(defaultThreshold: 0.05), metrics: [.nsPerEvent, .eventsPerSec]).verdict
                == .improved
        }
        print("compare: \(slowdowns.count) cases, ratios \(Set(slowdowns).sorted()): improved in \(improved) of \(pairs) suites")
        return Double(improved) / Double(pairs)
    }

    /// "Improved" is decided for the whole comparison too: an unchanged suite is almost
    /// never called improved, a faster one is. Per row, a gate of a build against itself
    /// (186 cases with CPU times as noisy as 20%) said "improved" every time.
    func testImprovedIsDecidedForTheWholeComparisonToo() throws {
        try skipRateMeasurementUnderThreadSanitizer()
        XCTAssertLessThanOrEqual(Self.improvedRate(Array(repeating: 1.0, count: 186), seed: 31, pairs: 100, cv: 0.2), 0.02)
        XCTAssertLessThanOrEqual(Self.improvedRate(Array(repeating: 1.0, count: 16), seed: 31), 0.01)
        XCTAssertLessThanOrEqual(Self.improvedRate(Array(repeating: 0.97, count: 16), seed: 32), 0.05, "3% faster is inside the threshold")
        XCTAssertGreaterThanOrEqual(Self.improvedRate(Array(repeating: 0.9, count: 16), seed: 33), 0.95)
    }

    func testAnUnchangedSuiteFailsInAtMostOnePercent() throws {
        try skipRateMeasurementUnderThreadSanitizer()
        XCTAssertLessThanOrEqual(Self.failureRate(Array(repeating: 1.0, count: 16), method: .familyWise, seed: 11), 0.01)
    }

    /// The case that made per-row decisions fail CI: everything 3% slower, inside a 5%
    /// threshold. Per row it fails in about a fifth of suites; for the suite, rarely.
    func testASuiteThreePercentSlowerUnderAFivePercentThresholdFailsInAtMostFivePercent() throws {
        try skipRateMeasurementUnderThreadSanitizer()
        let slowdowns = Array(repeating: 1.03, count: 16)
        let familyWise = Self.failureRate(slowdowns, method: .familyWise, seed: 12)
        XCTAssertLessThanOrEqual(familyWise, 0.05)
        let perRow = Self.failureRate(slowdowns, method: .perRow, seed: 12)
        XCTAssertGreaterThan(perRow, familyWise + 0.02, "per row, the false alarms add up over 16 cases")
    }

    func testASuiteTenPercentSlowerIsCaughtInAtLeastNinetyFivePercent() throws {
        try skipRateMeasurementUnderThreadSanitizer()
        XCTAssertGreaterThanOrEqual(Self.failureRate(Array(repeating: 1.10, count: 16), method: .familyWise, seed: 13), 0.95)
    }

    /// The price of family-wise control: one slow case must stand out against 16 tests.
    /// At 10 trials about 73% (the issue asked for 80%); at 20 trials, more than 95%.
    func testOneCaseOfSixteenTenPercentSlowerIsCaughtInAtLeastSeventyPercentAndMoreWithMoreTrials() throws {
        try skipRateMeasurementUnderThreadSanitizer()
        let oneSlow = [1.10] + Array(repeating: 1.0, count: 15)
        XCTAssertGreaterThanOrEqual(Self.failureRate(oneSlow, method: .familyWise, seed: 14), 0.70)
        XCTAssertGreaterThanOrEqual(Self.failureRate(oneSlow, method: .familyWise, seed: 14, trials: 20), 0.95)
    }

    /// Family-wise, a per-row "regressed" that does not survive Holm reads "inconclusive", and
    /// the comparison's verdict follows its rows.
    func testARowThatDoesNotSurviveTheFamilyIsInconclusive() {
        var draws = ComparisonTests.SeededNormals(state: 15)
        var demoted = 0
        for _ in 0..<200 {
            let (base, new) = Self.suite(Array(repeating: 1.07, count: 16), draws: &draws)
            let perRow = Comparison(base: base, new: new, thresholds: Thresholds(), metrics: [.nsPerEvent], method: .perRow)
            let familyWise = Comparison(base: base, new: new, thresholds: Thresholds(), metrics: [.nsPerEvent])
            XCTAssertEqual(familyWise.hypotheses, 16)
            for (row, family) in zip(perRow.rows, familyWise.rows) {
                XCTAssertGreaterThanOrEqual(family.adjustedPValue!, row.pValue!)
                if row.verdict == .regressed && family.verdict != .regressed {
                    XCTAssertEqual(family.verdict, .inconclusive)
                    demoted += 1
                }
                if family.verdict == .regressed { XCTAssertEqual(row.verdict, .regressed) }
            }
            XCTAssertEqual(familyWise.verdict == .regressed, familyWise.count(.regressed) > 0)
        }
        XCTAssertGreaterThan(demoted, 0, "at 7% with a 5% threshold some rows pass per row but not for the family")
    }

    func testAnInconclusiveRowSaysWhatItCouldHaveDetected() throws {
        var draws = ComparisonTests.SeededNormals(state: 16)
        let (base, new) = Self.suite([1.0], draws: &draws, trials: 5, cv: 0.10)
        let row = try XCTUnwrap(Comparison(base: base, new: new, thresholds: Thresholds(), metrics: [.nsPerEvent]).rows.first)
        XCTAssertEqual(row.verdict, .inconclusive)
        let detectable = try XCTUnwrap(row.detectableChange)
        // 10% noise, 5 trials a side: a change must clear the 5% threshold by several standard errors.
        XCTAssertGreaterThan(detectable, 0.15)
        XCTAssertLessThan(detectable, 0.60)
    }
}
