import BenchModel
import Foundation
import Synchronization

/// A hand-off from producer threads to one serial consumer, as a peer framework (or a raw
/// baseline) does it: what the `observeOn.*` workloads measure on scheduler `none`, with
/// the same producers, items, checks and metrics as the Rx strategies.
///
/// Each adapter is one file and one line in `HandOffs.all`; its strategy name is its
/// stable name in the results.
///
/// Guarantees every adapter keeps (the workloads check them):
/// - `deliver` runs serially, once per item sent, in each producer's order;
/// - once `cancel()` returns on the consumer side (from inside `deliver`), `deliver` is not
///   called again, and later sends neither block nor deliver.
protocol HandOff: AnyObject, Sendable {
    /// The strategy that selects this adapter.
    static var strategy: StrategyName { get }

    /// Starts the consumer.
    init(deliver: @escaping @Sendable (Item) -> Void)

    /// Runs on one producer thread (several run at once): sends `item(0)`, `item(1)`, …
    /// `item(count - 1)` in order, and returns once all are handed off. `item` may block
    /// (a paced producer waits for each item's due time inside it).
    func produce(count: Int, item: @escaping @Sendable (Int) -> Item)

    /// After the last `produce` has returned: returns once everything sent has been
    /// delivered, or false after `timeout` seconds.
    func finish(timeout: TimeInterval) -> Bool

    /// Stops delivery the framework's own way (see each adapter).
    func cancel()
}

/// The hand-off adapters, by strategy.
enum HandOffs {
    static let all: [any HandOff.Type] = [
        GCDHandOff.self,
        AsyncStreamHandOff.self,
        OpenCombineHandOff.self,
        ActorHandOff.self,
        AsyncChannelHandOff.self,
    ]

    /// The adapter `strategy` selects, if it names one.
    static func type(for strategy: StrategyName) -> (any HandOff.Type)? {
        all.first { $0.strategy == strategy }
    }

    /// Starts `strategy`'s adapter; traps for a strategy that names none (the plan pairs
    /// scheduler `none` only with hand-off strategies).
    static func make(_ strategy: StrategyName, deliver: @escaping @Sendable (Item) -> Void) -> any HandOff {
        guard let type = type(for: strategy) else { preconditionFailure("'\(strategy.rawValue)' is not a hand-off strategy") }
        return type.init(deliver: deliver)
    }
}

extension HandOff {
    /// A loop on the producer's own thread: for the adapters whose send does not suspend.
    @inline(__always)
    func sendEach(count: Int, item: (Int) -> Item, _ send: (Item) -> Void) {
        for index in 0..<count { send(item(index)) }
    }
}

/// The consumer behind a flag, for hand-offs without a cancellation of their own (raw
/// GCD, an actor): hand-written code checks a flag per item the same way.
final class FlaggedDelivery: Sendable {
    private let deliver: @Sendable (Item) -> Void
    private let cancelled = Atomic<Bool>(false)

    init(_ deliver: @escaping @Sendable (Item) -> Void) { self.deliver = deliver }

    /// Delivers `item` unless cancelled. Relaxed loads suffice: the cancel that matters is
    /// made from inside an earlier delivery on the same serial queue or actor, which
    /// orders it before this one.
    @inline(__always)
    func callAsFunction(_ item: Item) {
        if !cancelled.load(ordering: .relaxed) { deliver(item) }
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

extension Task where Success == Void, Failure == Never {
    /// The consumer of the async hand-offs: one detached Task reading `sequence` until it
    /// ends, delivering each item. It checks cancellation before each item, because an
    /// async sequence may still hand out what it holds after its reader was cancelled.
    static func consuming(
        _ sequence: some AsyncSequence<Item, Never> & Sendable, deliver: @escaping @Sendable (Item) -> Void
    ) -> Task<Void, Never> {
        Task.detached {
            for await item in sequence {
                if Task<Never, Never>.isCancelled { break }
                deliver(item)
            }
        }
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

extension StrategyName {
    /// The context baselines and peer frameworks: they run without an Rx scheduler
    /// (scheduler `none`), through a hand-off adapter each.
    package var isBaseline: Bool { HandOffs.type(for: self) != nil }

    /// The hand-off strategies the observe(on:) workloads offer on scheduler `none`.
    static let handOffs: [StrategyName] = HandOffs.all.map { $0.strategy }
}
