import Dispatch
import Foundation
import RxSchedulers
import Synchronization

/// The end of a trial's item stream (the fan-in workloads): every item to a checking
/// consumer, an error recorded as a violation, and the moment the stream completed, which
/// ends the trial's clock.
final class ItemStreamEnd: Sendable {
    private let finishedAt = Atomic<UInt64>(0)
    private let done = DispatchSemaphore(value: 0)

    /// Subscribes `consumer` to `stream`.
    func subscribe(_ stream: Observable<Item>, consumer: ItemConsumer, invariants: InvariantReport) -> Disposable {
        stream.subscribe(
            onNext: consumer.consume,
            onError: { [self] error in
                invariants.record("unexpected error \(error)")
                done.signal()
            },
            onCompleted: { [self] in
                finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                done.signal()
            })
    }

    /// Waits up to `timeout` seconds for the stream to end and returns when it completed;
    /// after an error or a timeout (recorded as a violation naming how many of `events`
    /// arrived), the time now.
    func waitForEnd(timeout: TimeInterval, events: Int, consumer: ItemConsumer, invariants: InvariantReport) -> UInt64 {
        let ended = done.wait(seconds: timeout, orReport: invariants, "\(consumer.delivered) of \(events) events delivered")
        let completed = finishedAt.load(ordering: .relaxed)
        return ended && completed != 0 ? completed : MonotonicClock.now()
    }
}
