import BenchModel
import Foundation

/// Strategy `asyncStream`: an unbounded `AsyncStream` whose `yield` never blocks, read by
/// one Task with `for await`. Cancellation cancels that Task (the stream would still hand
/// out what it buffered; the reading loop stops at the next item).
final class AsyncStreamHandOff: BuiltInHandOff, Sendable {
    private let continuation: AsyncStream<Item>.Continuation
    private let consumer: Task<Void, Never>

    init(deliver: @escaping @Sendable (Item) -> Void) {
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        consumer = .consuming(stream, deliver: deliver)
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
