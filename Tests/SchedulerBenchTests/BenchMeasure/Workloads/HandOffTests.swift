import Foundation
import Synchronization
import XCTest

@testable import BenchAnalysis
@testable import BenchMeasure
@testable import BenchModel
@testable import BenchStress
@testable import BenchWorkflows

/// Every hand-off adapter (the baselines and peer frameworks on scheduler `none`) keeps the
/// guarantees `HandOff` states: serial delivery, once each, in each producer's order; and
/// nothing delivered once `cancel()` returned inside a delivery, with no send left blocked.
final class HandOffTests: XCTestCase {
    func testEveryStrategyOnSchedulerNoneHasAnAdapter() {
        XCTAssertEqual(StrategyName.handOffs, [.gcd, .asyncStream, .openCombine, .actor, .asyncChannel])
        for strategy in StrategyName.registered {
            XCTAssertEqual(strategy.isBaseline, StrategyName.handOffs.contains(strategy), "\(strategy)")
        }
        XCTAssertEqual(ObserveOnThroughput().strategies(on: .none), StrategyName.handOffs)
        XCTAssertEqual(ObserveOnLatency().strategies(on: .none), StrategyName.handOffs)
    }

    func testEveryAdapterDeliversEachProducersItemsOnceInOrderAndSerially() throws {
        for strategy in StrategyName.handOffs {
            let report = InvariantReport()
            let shares = [1_500, 1_500, 1_000]
            let consumer = ItemConsumer(expectedCounts: shares, invariants: report, checking: true)
            let handOff = HandOffs.make(strategy) { consumer.consume($0) }
            let producers = try ProducerThreads(count: shares.count, name: "handoff-test") { producer in
                handOff.produce(count: shares[producer]) { Item(producer: producer, sequence: $0) }
            }
            _ = producers.start()
            XCTAssertTrue(producers.join(timeout: 30), "\(strategy): producers did not return")
            XCTAssertTrue(handOff.finish(timeout: 30), "\(strategy): finish timed out")
            consumer.finish()
            XCTAssertEqual(consumer.delivered, 4_000, "\(strategy)")
            XCTAssertEqual(report.count, 0, "\(strategy): \(report.descriptions)")
        }
    }

    /// The observer cancels from inside its 100th delivery while the producer still has
    /// thousands of items to send (many of them already queued): none of them may arrive,
    /// the producer must not be left blocked, and `finish` must still return.
    func testCancelInsideADeliveryStopsDeliveryAndReleasesTheProducer() throws {
        for strategy in StrategyName.handOffs {
            let report = InvariantReport()
            let consumer = ItemConsumer(expectedCounts: [100], invariants: report, checking: true)
            let target = Target()
            let handOff = HandOffs.make(strategy) { item in
                consumer.consume(item)
                if item.sequence == 99 {
                    target.handOff?.cancel()
                    consumer.disposed()
                }
            }
            target.handOff = handOff
            let producer = try ProducerThreads(count: 1, name: "handoff-cancel") { _ in
                handOff.produce(count: 20_000) { Item(producer: 0, sequence: $0) }
            }
            _ = producer.start()
            XCTAssertTrue(producer.join(timeout: 30), "\(strategy): the producer was left blocked after cancel()")
            XCTAssertTrue(handOff.finish(timeout: 30), "\(strategy): finish timed out after cancel()")
            consumer.finish()
            XCTAssertEqual(consumer.delivered, 100, "\(strategy): \(report.descriptions)")
            XCTAssertEqual(report.count, 0, "\(strategy): \(report.descriptions)")
        }
    }

    private final class Target: @unchecked Sendable {
        var handOff: (any HandOff)?
    }
}
