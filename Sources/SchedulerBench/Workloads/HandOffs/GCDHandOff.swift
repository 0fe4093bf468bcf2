import BenchModel
import Dispatch
import Foundation

/// Strategy `gcd`: one raw `DispatchQueue.async` per item to a private serial queue, the
/// floor every scheduler is measured against. Cancellation is a flag each block checks,
/// as hand-written GCD code does it.
final class GCDHandOff: BuiltInHandOff, Sendable {
    private let queue = DispatchQueue(label: "schedbench.handoff.gcd")
    private let delivery: FlaggedDelivery

    init(deliver: @escaping @Sendable (Item) -> Void) {
        delivery = FlaggedDelivery(deliver)
    }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        sendEach(count: count, item: item) { item in
            queue.async { [delivery] in delivery(item) }
        }
    }

    func finish(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    func cancel() { delivery.cancel() }
}
