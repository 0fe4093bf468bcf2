import BenchModel
import Foundation

/// Strategy `actor`: each item hops onto an actor in its own unstructured Task, and the
/// actor calls the consumer. The Task's closure is isolated to the actor, so it is
/// enqueued on the actor directly from the producer's thread (SE-0431) and a producer's
/// items run in the order sent; a closure that awaited the actor from elsewhere would
/// give no order at all. The actor runs its jobs by priority, FIFO within one, so every
/// job here has the same explicit priority: a Task's default one follows the creating
/// thread's, and a job from a higher-priority thread would overtake the items. Cancellation
/// is actor state: a flag the actor checks per item.
final class ActorHandOff: BuiltInHandOff, Sendable {
    /// The actor the items hop onto. A global actor, because only a closure statically
    /// isolated to its actor is enqueued in order; one case runs at a time, so trials do
    /// not share it while measuring.
    @globalActor
    actor Consumer {
        static let shared = Consumer()
    }

    private static let priority = TaskPriority.medium
    private let delivery: FlaggedDelivery

    init(deliver: @escaping @Sendable (Item) -> Void) {
        delivery = FlaggedDelivery(deliver)
    }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        sendEach(count: count, item: item) { item in
            Task(priority: Self.priority) { @Consumer [delivery] in delivery(item) }
        }
    }

    func finish(timeout: TimeInterval) -> Bool {
        // A last job on the actor runs after every item sent before it (same order).
        let done = DispatchSemaphore(value: 0)
        Task(priority: Self.priority) { @Consumer in done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    func cancel() { delivery.cancel() }
}
