import BenchModel
import RxSchedulers
import XCTest

@testable import SchedulerBench

/// `DeliveryChecker` names what a delivery sequence broke: an element that arrives after a
/// later one of its producer is a reorder, not a loss; one that never arrives is lost.
final class DeliveryCheckerTests: XCTestCase {
    private func verdicts(_ deliveries: [(producer: Int, sequence: Int)], order: DeliveryChecker.Order = .exact) -> (kinds: [ViolationKind], details: [String], delivered: [Int]) {
        let iteration = StressIteration(scenario: .mergeFanIn, index: 0, seed: 1, heartbeat: Heartbeat())
        let checker = DeliveryChecker(producers: 2, iteration: iteration, order: order)
        for (producer, sequence) in deliveries { checker.check(.next(producer << 32 | sequence)) }
        let delivered = checker.deliveredPerProducer
        checker.finish("fan-in")
        let violations = iteration.collected().violations
        return (violations.map(\.kind), violations.map(\.detail), delivered)
    }

    func testElementsInSequenceBreakNothing() {
        let result = verdicts([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
        XCTAssertEqual(result.kinds, [])
        XCTAssertEqual(result.delivered, [3, 2])
    }

    func testAnElementThatArrivesAfterALaterOneIsAReorderNotALoss() {
        let result = verdicts([(0, 0), (0, 2), (0, 3), (0, 1), (1, 0)])
        XCTAssertEqual(result.kinds, [.reorder])
        XCTAssertEqual(result.details, ["producer 0's 1 after its 3"])
        XCTAssertEqual(result.delivered, [4, 1])
    }

    func testAnElementSkippedAndNeverDeliveredIsLostAtFinishNamingIt() {
        let result = verdicts([(1, 0), (1, 4), (1, 2)])
        XCTAssertEqual(result.kinds, [.reorder, .lost])
        XCTAssertEqual(result.details.last, "fan-in: producer 1's 1 (and 1 more) never delivered, though its 4 was")
        XCTAssertEqual(result.delivered, [0, 3])
    }

    func testAJumpTooFarToRememberIsLostAtOnce() {
        let far = DeliveryChecker.largestTrackedGap + 2
        let result = verdicts([(0, 0), (0, far), (0, far + 1)])
        XCTAssertEqual(result.kinds, [.lost])
        XCTAssertEqual(result.details, ["producer 0's \(far) delivered after its 0: \(far - 1) skipped"])
    }

    func testARepeatedElementIsADuplicate() {
        XCTAssertEqual(verdicts([(0, 0), (0, 1), (0, 1)]).kinds, [.duplicate])
        XCTAssertEqual(verdicts([(0, 0), (0, 2), (0, 1), (0, 1)]).kinds, [.reorder, .duplicate])
    }

    func testAnIncreasingOrderMayDropElementsButNotGoBack() {
        XCTAssertEqual(verdicts([(0, 0), (0, 5), (0, 9)], order: .increasing).kinds, [])
        XCTAssertEqual(verdicts([(0, 0), (0, 5), (0, 3)], order: .increasing).kinds, [.reorder])
    }
}
