import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class StressFileTests: XCTestCase {
    private let mpscChecks: [ViolationKind] = [.lost, .duplicate, .reorder, .hang, .crash]
    private let countingChecks: [ViolationKind] = [.lost, .reorder, .reentrant, .leak, .hang, .crash]

    func sample() -> [StressResult] {
        var passed = StressResult(scenario: .mpscSpec, checks: mpscChecks, seed: 42, hooksCompiled: true, spinners: 1, seededBug: nil)
        passed.iterations = 10
        passed.operations = 5_000
        passed.outcomes = [StressOutcome(name: "boundary race", outcomeClass: .acceptable, count: 5)]
        var failed = StressResult(scenario: .mainCounting, checks: countingChecks, seed: 42, hooksCompiled: false, spinners: 1, seededBug: nil)
        failed.iterations = 3
        failed.record(StressViolation(kind: .reentrant, iteration: 2, detail: "nested"), atSecond: 0.25)
        return [passed, failed]
    }

    func testRowsAreTidyWithAReplayCommandOnFailures() throws {
        let provenance = Provenance.current()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stress-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try StressFile.write(sample(), provenance: provenance, to: directory)
        let rows = try StressFile.read(directory.appendingPathComponent(StressFile.name).path)
        // A row per checked kind (zeros included) and per outcome.
        XCTAssertEqual(rows.count, mpscChecks.count + 1 + countingChecks.count)
        let outcome = try XCTUnwrap(rows.first { $0["record"] == "outcome" })
        XCTAssertEqual(outcome["name"], "boundary race")
        XCTAssertEqual(outcome["count"], "5")
        XCTAssertEqual(outcome["status"], "passed")
        XCTAssertEqual(outcome["replay"], "")
        XCTAssertEqual(outcome["run_id"], provenance.runID)
        let reentrant = try XCTUnwrap(rows.first { $0["name"] == "reentrant" })
        XCTAssertEqual(reentrant["count"], "1")
        XCTAssertEqual(reentrant["status"], "failed")
        XCTAssertEqual(reentrant["hooks"], "absent")
        XCTAssertEqual(reentrant["failing_iteration"], "2")
        XCTAssertEqual(reentrant["replay"], "schedbench stress --scenario main.counting --seed 42 --iterations 3 --threads 1")
        XCTAssertEqual(
            rows.filter { $0["scenario"] == "main.counting" && $0["record"] == "violation" }.map { $0["count"]! }.filter { $0 != "0" }, ["1"])
    }

    /// Defect: a scenario Ctrl-C stopped early was written, and printed, as "passed".
    func testAScenarioCutShortIsNotAPass() throws {
        var results = sample()
        results[0].interruptedAfter = 10
        XCTAssertEqual(results[0].status, "interrupted")
        XCTAssertEqual(results[1].status, "failed", "a failure found before the interrupt stays a failure")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stress-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try StressFile.write(results, provenance: .current(), to: directory)
        let rows = try StressFile.read(directory.appendingPathComponent(StressFile.name).path)
        XCTAssertEqual(Set(rows.filter { $0["scenario"] == "mpsc.spec" }.map { $0["status"]! }), ["interrupted"])
        XCTAssertTrue(StressFile.markdown(results).contains("| mpsc.spec | interrupted |"), StressFile.markdown(results))
    }

    func testMarkdownHasTheSummaryAndOutcomeTables() {
        let text = StressFile.markdown(sample())
        XCTAssertTrue(text.contains("| mpsc.spec | passed | 10 | 5000 |"), text)
        XCTAssertTrue(text.contains("| main.counting | **failed** | 3 |"), text)
        XCTAssertTrue(text.contains("reentrant 1"), text)
        XCTAssertTrue(text.contains("`schedbench stress --scenario main.counting --seed 42 --iterations 3 --threads 1`"), text)
        XCTAssertTrue(text.contains("| boundary race | acceptable | 5 |"), text)
    }
}
