import SchedulerBench
import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch

/// Strategy `openCombine`: OpenCombine 0.14's `PassthroughSubject`, `receive(on:)` a
/// private serial `DispatchQueue` (its OpenCombineDispatch scheduler) and `sink`, what a
/// Combine user writes. Producers call `send` concurrently (the subject serializes them
/// under its lock); `receive(on:)` schedules one queue block per value. Cancellation is
/// `AnyCancellable.cancel()`: `receive(on:)` drops values already scheduled once its
/// subscription is cancelled.
final class OpenCombineHandOff: HandOff, @unchecked Sendable {
    private let subject = PassthroughSubject<Item, Never>()
    private let queue = DispatchQueue(label: "schedbench.handoff.openCombine")
    private var subscription: AnyCancellable?

    init(deliver: @escaping @Sendable (Item) -> Void) {
        subscription =
            subject
            .receive(on: queue.ocombine)
            .sink(
                receiveCompletion: { _ in },
                receiveValue: deliver)
    }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        sendEach(count: count, item: item) { subject.send($0) }
    }

    /// `receive(on:)` puts the completion on the queue from inside `send(completion:)`
    /// (after every value sent before it), or nothing once cancelled, so a block queued
    /// next runs after the last delivery either way.
    func finish(timeout: TimeInterval) -> Bool {
        subject.send(completion: .finished)
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    func cancel() { subscription?.cancel() }
}
