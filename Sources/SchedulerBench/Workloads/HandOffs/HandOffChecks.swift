import BenchModel
import Foundation

/// The guarantees `HandOff` states, checked on one adapter: what the built-ins' and the
/// peers' tests hold every hand-off to. Each check starts the adapter with `start` (given
/// the consumer's `deliver`), drives it from producer threads and returns what broke, in
/// words; empty when nothing did.
package enum HandOffChecks {
    /// Three producers send 1,500, 1,500 and 1,000 items: each must arrive once, in its
    /// producer's order, one delivery at a time, and `finish` must return.
    package static func deliversEachProducersItemsOnceInOrderAndSerially(
        _ start: (_ deliver: @escaping @Sendable (Item) -> Void) throws -> any HandOff
    ) throws -> [String] {
        let report = InvariantReport()
        let shares = [1_500, 1_500, 1_000]
        let consumer = ItemConsumer(expectedCounts: shares, invariants: report, checking: true)
        let handOff = try start { consumer.consume($0) }
        let producers = try ProducerThreads(count: shares.count, name: "handoff-check") { producer in
            handOff.produce(count: shares[producer]) { Item(producer: producer, sequence: $0) }
        }
        _ = producers.start()
        var problems: [String] = []
        if !producers.join(timeout: 30) { problems.append("the producers did not return within 30 s") }
        if !handOff.finish(timeout: 30) { problems.append("finish timed out") }
        consumer.finish()
        if consumer.delivered != 4_000 { problems.append("\(consumer.delivered) of 4000 items delivered") }
        return problems + report.descriptions
    }

    /// The consumer cancels from inside its 100th delivery while the producer still has
    /// thousands of items to send (many of them already queued): none of them may arrive,
    /// the producer must not be left blocked, and `finish` must still return.
    package static func stopsAtACancelInsideADelivery(
        _ start: (_ deliver: @escaping @Sendable (Item) -> Void) throws -> any HandOff
    ) throws -> [String] {
        let report = InvariantReport()
        let consumer = ItemConsumer(expectedCounts: [100], invariants: report, checking: true)
        let target = Locked<(any HandOff)?>(nil)
        let handOff = try start { item in
            consumer.consume(item)
            if item.sequence == 99 {
                target.withLock { $0 }?.cancel()
                consumer.disposed()
            }
        }
        target.withLock { $0 = handOff }
        let producer = try ProducerThreads(count: 1, name: "handoff-cancel") { _ in
            handOff.produce(count: 20_000) { Item(producer: 0, sequence: $0) }
        }
        _ = producer.start()
        var problems: [String] = []
        if !producer.join(timeout: 30) { problems.append("the producer was left blocked after cancel()") }
        if !handOff.finish(timeout: 30) { problems.append("finish timed out after cancel()") }
        consumer.finish()
        if consumer.delivered != 100 { problems.append("\(consumer.delivered) items delivered, not the 100 before the cancel") }
        return problems + report.descriptions
    }
}
