import Foundation
import Synchronization
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Every hand-off adapter (the baselines and peer frameworks on scheduler `none`) keeps the
/// guarantees `HandOff` states: serial delivery, once each, in each producer's order; and
/// nothing delivered once `cancel()` returned inside a delivery, with no send left blocked.
final class HandOffTests: XCTestCase {
    func testEveryStrategyOnSchedulerNoneHasAnAdapter() {
        XCTAssertEqual(StrategyName.handOffs, [.gcd, .asyncStream, .actor], "the runtime's own; the peers register theirs (PeersTests)")
        for strategy in StrategyName.registered {
            XCTAssertEqual(strategy.isBaseline, StrategyName.handOffs.contains(strategy), "\(strategy)")
        }
        XCTAssertEqual(ObserveOnThroughput().strategies(on: .none), StrategyName.handOffs)
        XCTAssertEqual(ObserveOnLatency().strategies(on: .none), StrategyName.handOffs)
    }

    func testEveryAdapterDeliversEachProducersItemsOnceInOrderAndSerially() throws {
        for strategy in StrategyName.handOffs {
            XCTAssertEqual(try HandOffChecks.deliversEachProducersItemsOnceInOrderAndSerially { HandOffs.make(strategy, deliver: $0) }, [], "\(strategy)")
        }
    }

    /// The observer cancels from inside its 100th delivery while the producer still has
    /// thousands of items to send (many of them already queued): none of them may arrive,
    /// the producer must not be left blocked, and `finish` must still return.
    func testCancelInsideADeliveryStopsDeliveryAndReleasesTheProducer() throws {
        for strategy in StrategyName.handOffs {
            XCTAssertEqual(try HandOffChecks.stopsAtACancelInsideADelivery { HandOffs.make(strategy, deliver: $0) }, [], "\(strategy)")
        }
    }
}
