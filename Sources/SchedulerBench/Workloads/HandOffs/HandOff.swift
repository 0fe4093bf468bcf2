import BenchModel
import Foundation
import Synchronization

/// A hand-off from producer threads to one serial consumer, the way a framework that is
/// not an Rx scheduler moves events (a peer framework, an event loop, a raw baseline): what
/// the `observeOn.*` workloads measure on scheduler `none`, with the same producers, items,
/// checks and metrics as observe(on:). Register one with `Registry.handOff(_:summary:make:)`;
/// its name is its stable strategy name in the results.
///
/// Guarantees an adapter must keep (the workloads check them and count a breach as an
/// invariant violation):
/// - `deliver` (given to the registration's `make`) runs serially, once per item sent, in
///   each producer's order;
/// - once `cancel()` returns on the consumer side (from inside `deliver`), `deliver` is not
///   called again, and later sends neither block nor deliver.
public protocol HandOff: AnyObject, Sendable {
    /// Runs on one producer thread (several run at once): sends `item(0)`, `item(1)`, …
    /// `item(count - 1)` in order, and returns once all are handed off. `item` may block
    /// (a paced producer waits for each item's due time inside it).
    func produce(count: Int, item: @escaping @Sendable (Int) -> Item)

    /// After the last `produce` has returned: returns once everything sent has been
    /// delivered, or false after `timeout` seconds.
    func finish(timeout: TimeInterval) -> Bool

    /// Stops delivery the framework's own way.
    func cancel()
}

/// The built-in adapters, each one file, started by their initializer (`BuiltIns.swift`
/// registers them).
protocol BuiltInHandOff: HandOff {
    init(deliver: @escaping @Sendable (Item) -> Void)
}

extension HandOff {
    /// A loop on the producer's own thread: for the adapters whose send does not suspend.
    @inline(__always)
    package func sendEach(count: Int, item: (Int) -> Item, _ send: (Item) -> Void) {
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
    package static func consuming(
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
    package func wait(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never>.detached {
            _ = await self.value
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }
}
