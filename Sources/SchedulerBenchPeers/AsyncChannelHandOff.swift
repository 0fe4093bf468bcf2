import AsyncAlgorithms
import SchedulerBench
import Foundation

/// Strategy `asyncChannel`: swift-async-algorithms' `AsyncChannel`, back-pressured (a
/// `send` suspends until the consumer takes the item), read by one Task with `for await`.
/// Each producer thread runs its sends in a Task of its own and waits for it, since
/// `send` is async. Cancellation cancels the consumer Task (a suspended sender's item would
/// still be handed out; the reading loop stops at it) and finishes the channel so that
/// suspended and later sends return at once.
final class AsyncChannelHandOff: HandOff, Sendable {
    private let channel = AsyncChannel<Item>()
    private let consumer: Task<Void, Never>

    init(deliver: @escaping @Sendable (Item) -> Void) {
        consumer = .consuming(channel, deliver: deliver)
    }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        let producer = Task.detached { [channel] in
            for index in 0..<count { await channel.send(item(index)) }
        }
        // Bounded by the trial: a producer outlives it only if the consumer hangs, which
        // the workload reports.
        _ = producer.wait(timeout: 3_600)
    }

    func finish(timeout: TimeInterval) -> Bool {
        channel.finish()
        return consumer.wait(timeout: timeout)
    }

    func cancel() {
        consumer.cancel()
        channel.finish()
    }
}
