import Foundation

/// The context baselines (strategies `gcd` and `asyncStream`, scheduler `none`): the same
/// producers and consumer as the observe(on:) workloads, with the hand-off done by a raw
/// `DispatchQueue.async` per event, or by an unbounded `AsyncStream` read by one Task.
enum ContextBaseline {
    /// A hand-off from producer threads to one serial consumer.
    final class Channel: @unchecked Sendable {
        private let strategy: StrategyName
        private let deliver: @Sendable (Item) -> Void
        private let queue = DispatchQueue(label: "schedbench.baseline.gcd")
        private var continuation: AsyncStream<Item>.Continuation?
        private var consumerTask: Task<Void, Never>?

        /// `deliver` is called serially, on the consumer side, once per event sent.
        init(strategy: StrategyName, deliver: @escaping @Sendable (Item) -> Void) {
            precondition(strategy.isBaseline, "\(strategy) is not a context baseline")
            self.strategy = strategy
            self.deliver = deliver
            if strategy == .asyncStream {
                let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .unbounded)
                self.continuation = continuation
                consumerTask = Task.detached {
                    for await item in stream { deliver(item) }
                }
            }
        }

        @inline(__always)
        func send(_ item: Item) {
            if let continuation {
                continuation.yield(item)
            } else {
                queue.async { [deliver] in deliver(item) }
            }
        }

        /// Call after the last `send`: returns once everything sent has been consumed, or false on timeout.
        func drain(timeout: TimeInterval) -> Bool {
            let done = DispatchSemaphore(value: 0)
            if let continuation, let consumerTask {
                continuation.finish()
                Task.detached {
                    await consumerTask.value
                    done.signal()
                }
            } else {
                queue.async { done.signal() }
            }
            return done.wait(timeout: .now() + timeout) == .success
        }
    }
}
