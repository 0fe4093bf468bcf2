import XCTest

@testable import SchedBenchCLI
@testable import BenchModel

final class StressRendererTests: XCTestCase {
    private func result(iterations: Int) -> StressResult {
        var result = StressResult(scenario: .mpscSpec, checks: [.lost, .duplicate], seed: 7, hooksCompiled: true, spinners: 1, seededBug: nil)
        result.iterations = iterations
        return result
    }

    /// Defect: a scenario that Ctrl-C stopped early was printed "passed".
    func testAScenarioCutShortSaysSo() {
        XCTAssertTrue(StressRenderer.describe(result(iterations: 40))[0].hasSuffix(": passed"))
        var cut = result(iterations: 3)
        cut.interruptedAfter = 3
        let line = StressRenderer.describe(cut)[0]
        XCTAssertTrue(line.contains("interrupted after 3 iterations, no violation so far (not a pass"), line)
        XCTAssertFalse(line.contains(": passed"), line)
    }
}
