import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Every documented exit status, decided in one place.
final class ExitStatusTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .trampolineNested, scheduler: .currentThread, strategy: .none,
        producers: 1, events: 10, payloadBytes: 0, rateHz: 0)

    private func outcome(violations: Double = 0, error: BenchError? = nil, interrupted: Bool = false) -> RunWorkflow.Measured {
        var cases = [
            RunWorkflow.CaseOutcome(
                benchCase: benchCase,
                result: .success(
                    CaseResult(
                        benchCase: benchCase,
                        trials: [
                            TrialRecord(benchCase: benchCase, trial: 1, metrics: [.invariantViolations: violations])
                        ])))
        ]
        if let error { cases.append(RunWorkflow.CaseOutcome(benchCase: benchCase, result: .failure(error))) }
        return RunWorkflow.Measured(cases: cases, interrupted: interrupted)
    }

    func testARunsStatusPutsCorrectnessFirst() {
        XCTAssertEqual(ExitStatus(outcome()), .ok)
        XCTAssertEqual(ExitStatus(outcome(interrupted: true)), .interrupted)
        XCTAssertEqual(ExitStatus(outcome(error: .caseCannotRun("x"), interrupted: true)), .error)
        XCTAssertEqual(ExitStatus(outcome(violations: 1, error: .caseCannotRun("x"))), .correctnessFailure)
    }

    func testAComparisonsStatus() {
        XCTAssertEqual(ExitStatus(ComparisonDecision.passed), .ok)
        XCTAssertEqual(ExitStatus(ComparisonDecision.regressed(regressed: 1, inconclusive: 0)), .regression)
        XCTAssertEqual(ExitStatus(ComparisonDecision.correctnessFailure(cases: 1)), .correctnessFailure)
        XCTAssertEqual(ExitStatus(ComparisonDecision.mismatched("nothing in common")), .error)
    }

    func testTheNumbersAreTheDocumentedOnes() {
        XCTAssertEqual(
            [ExitStatus.ok, .error, .regression, .correctnessFailure, .usage, .interrupted, .terminated].map(\.rawValue),
            [0, 1, 2, 3, 64, 130, 143])
    }
}
