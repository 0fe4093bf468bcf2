import Foundation
import XCTest

@testable import BenchMeasure
@testable import BenchModel

#if ValidationSlowdown
final class ValidationSlowdownTests: XCTestCase {
    private let serialDrain = BenchCase(
        suite: "test", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
        producers: 1, events: 1_000, payloadBytes: 16, rateHz: 0)

    override func tearDown() {
        ValidationSlowdown.turnsPerEvent = 0
    }

    func testParsesACasePrefixAndAPercent() throws {
        XCTAssertEqual(
            try ValidationSlowdown.parse("observeOn.throughput/serial/drain/p1:10"),
            ValidationSlowdown.Request(casePrefix: "observeOn.throughput/serial/drain/p1", fraction: 0.1))
        XCTAssertEqual(try ValidationSlowdown.parse("schedule.throughput:2.5")?.fraction, 0.025)
        XCTAssertNil(try ValidationSlowdown.parse(nil))
        XCTAssertNil(try ValidationSlowdown.parse(""))
    }

    func testRejectsAMalformedRequestNamingTheVariableAndTheForm() {
        for text in ["observeOn.throughput", "observeOn.throughput:", ":10", "a:0", "a:-5", "a:ten", "a:2000"] {
            XCTAssertThrowsError(try ValidationSlowdown.parse(text), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("SCHEDBENCH_SLOWDOWN=\(text)"), message)
                XCTAssertTrue(message.contains("CASE-PREFIX:PERCENT"), message)
            }
        }
    }

    func testSlowsOnlyAMatchingCaseByItsShareOfTheCalibratedCost() throws {
        var calibrations = 0
        try ValidationSlowdown.prepare(for: serialDrain, request: "observeOn.throughput/serial/drain:20") {
            calibrations += 1
            return 100
        }
        let expected = Int((100 * 0.2 / ValidationSlowdown.nanosecondsPerTurn).rounded())
        XCTAssertEqual(ValidationSlowdown.turnsPerEvent, max(1, expected))
        XCTAssertEqual(calibrations, 1)

        // Twice the share, twice the turns (to the rounding).
        try ValidationSlowdown.prepare(for: serialDrain, request: "observeOn.throughput/serial/drain:40") { 100 }
        XCTAssertEqual(Double(ValidationSlowdown.turnsPerEvent), Double(2 * max(1, expected)), accuracy: 1)

        // Another case: no calibration trial, no slowdown; so too without a request.
        try ValidationSlowdown.prepare(for: serialDrain, request: "observeOn.throughput/concurrent:20") {
            calibrations += 1
            return 100
        }
        XCTAssertEqual(ValidationSlowdown.turnsPerEvent, 0)
        try ValidationSlowdown.prepare(for: serialDrain, request: nil) {
            calibrations += 1
            return 100
        }
        XCTAssertEqual(ValidationSlowdown.turnsPerEvent, 0)
        XCTAssertEqual(calibrations, 1)
    }

    /// The case runner calibrates and slows a real case: the run completes clean, and the
    /// case's turns are set from its own calibration trial.
    func testTheRunnerCalibratesAMatchingCaseBeforeItsWarmup() throws {
        setenv("SCHEDBENCH_SLOWDOWN", "observeOn.throughput/serial/drain:10", 1)
        defer { unsetenv("SCHEDBENCH_SLOWDOWN") }
        var options = RunOptions()
        options.trials = 1
        options.warmup = 0
        options.countAllocations = false
        let result = try CaseRunner(options: options).run(serialDrain)
        XCTAssertEqual(result.trials.first?.metrics[.invariantViolations], 0)
        XCTAssertGreaterThan(ValidationSlowdown.turnsPerEvent, 0, "the matching case was slowed")
    }
}
#endif
