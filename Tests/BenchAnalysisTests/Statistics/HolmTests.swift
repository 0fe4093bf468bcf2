import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class HolmTests: XCTestCase {
    func testHolmAdjustsOnAKnownExample() {
        // Sorted 0.01, 0.02, 0.03, 0.04 → 4·0.01, 3·0.02, 2·0.03, 1·0.04, each at least the one before.
        let adjusted = Holm.adjusted([0.03, 0.01, 0.04, 0.02])
        for (value, expected) in zip(adjusted, [0.06, 0.04, 0.06, 0.06]) { XCTAssertEqual(value, expected, accuracy: 1e-12) }
        XCTAssertEqual(Holm.adjusted([0.5, 0.9]), [1, 1], "adjusted p-values stop at 1")
        XCTAssertEqual(Holm.adjusted([]), [])
    }
}
