import Foundation

/// Strategy `asyncStream`: an unbounded `AsyncStream` whose `yield` never blocks, read by
/// one Task with `for await`. Cancellation cancels that Task; the loop checks
/// `Task.isCancelled` before each item, since the stream still hands out what it buffered.
final class AsyncStreamHandOff: HandOff, @unchecked Sendable {
    static let strategy = StrategyName.asyncStream

    private let continuation: AsyncStream<Item>.Continuation
    private let consumer: Task<Void, Never>

    init(deliver: @escaping @Sendable (Item) -> Void) {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        consumer = Task.detached {
            for await item in stream {
                if Task.isCancelled { break }
                deliver(item)
            }
        }
    }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        sendEach(count: count, item: item) { continuation.yield($0) }
    }

    func finish(timeout: TimeInterval) -> Bool {
        continuation.finish()
        return consumer.wait(timeout: timeout)
    }

    func cancel() {
        consumer.cancel()
        continuation.finish()
    }
}

extension Task where Failure == Never {
    /// Blocks the calling thread (never a Task's) until the task ends, or false after `timeout` seconds.
    func wait(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never>.detached {
            _ = await self.value
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }
}
