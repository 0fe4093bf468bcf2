import XCTest

@testable import BenchModel

final class StressResultTests: XCTestCase {
    /// Pasted into a shell, the replay line replays: the seeded bug's variable, the
    /// spinning threads and the perturbed points are part of it.
    func testTheReplayCommandCarriesTheSeededBugTheThreadsAndThePoints() {
        var result = StressResult(
            scenario: .trampolineTree, checks: [.afterDispose], seed: 5, hooksCompiled: true, spinners: 0, seededBug: "trampolineRunsDisposed")
        XCTAssertNil(result.replayCommand, "nothing to replay while it passes")
        result.record(StressViolation(kind: .afterDispose, iteration: 6, detail: "ran"), atSecond: 1)
        XCTAssertEqual(
            result.replayCommand,
            "RXSCHEDULERS_SEEDED_BUG=trampolineRunsDisposed schedbench stress --scenario trampoline.tree --seed 5 --iterations 7 --threads 0")
        result.points = ["queueClaimed", "drainExiting"]
        XCTAssertTrue(result.replayCommand!.hasSuffix("--threads 0 --points queueClaimed,drainExiting"), result.replayCommand!)
        result.points = []
        XCTAssertTrue(result.replayCommand!.hasSuffix("--points none"), result.replayCommand!)
    }
}
