import Synchronization

/// Hands events that arrive from any number of threads at once to one observer, one at a
/// time, without holding a lock while the observer runs: `merge`, `flatMap` and
/// `merge(maxConcurrent:)` send through it.
///
/// Whoever raises `pending` from zero owns emission (the token). The owner delivers its
/// own event straight away when nothing is queued, then keeps delivering what other
/// threads queued meanwhile until `pending` falls back to zero; a thread that finds the
/// token taken queues its event and returns at once. So the observer is called
/// serially, a sending thread never waits for another one's delivery, and an observer
/// that makes a source emit again on its own thread (re-entrancy) finds its event queued
/// and delivered as soon as its own call returns — never inside it, and never deadlocked.
///
/// Guarantees:
/// - Serial delivery: calls of `deliver` never overlap.
/// - Each sender's order: events one thread sends (a serial source's events, whatever
///   thread each is sent on, as long as each `emit` returns before the next starts) are
///   delivered in the order sent. The token holder delivers straight away only when the
///   queue holds no claim at all (`MPSCQueue.consumerHasTakenEveryClaim`): a sender's
///   earlier event can still be queued behind the slot of another sender that has claimed
///   it and not yet published, and a direct delivery would overtake it.
/// - Nothing is left behind: a drain that stops at a slot claimed and not yet published
///   leaves what is behind it to that slot's sender, whose own increment of `pending`,
///   after it publishes, starts the next drain (`MPSCQueue`'s argument).
///
/// Costs: uncontended, a load, a compare-and-swap and a subtraction on `pending` and a
/// load of the queue reference per event, nothing allocated. Contended, a sender pays the
/// queue's claim and publish and one addition; the token holder does the delivering. The
/// queue is allocated by the first sender that finds the token taken (a subscription
/// whose sources never overlap allocates none) and freed with the serializer.
///
/// Inlinable, so the per-event code is specialized in the caller's module.
@usableFromInline
final class EmissionSerializer<Element>: @unchecked Sendable {
    @usableFromInline typealias Queue = MPSCQueue<Event<Element>>

    /// Delivers one event; called by the token holder only.
    @usableFromInline let deliver: (Event<Element>) -> Void
    /// The queue once a sender needed it (`Unmanaged` bits, 0 before), retained.
    @usableFromInline let queueBits = Atomic<UInt>(0)
    /// Keeps `pending`, which every sender writes, off the line of the fields above.
    @usableFromInline let paddingBefore = CacheLinePadding()
    /// Events sent and not yet accounted for by the token holder; above zero while the
    /// token is held.
    @usableFromInline let pending = Atomic<Int>(0)
    @usableFromInline let paddingAfter = CacheLinePadding()

    @inlinable
    init(deliver: @escaping (Event<Element>) -> Void) {
        self.deliver = deliver
    }

    deinit {
        let bits = queueBits.load(ordering: .acquiring)
        if bits != 0 { Unmanaged<Queue>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Sends `event`: delivers it now when no other thread is delivering and nothing is
    /// queued, otherwise queues it for the thread that is.
    @inlinable
    func emit(_ event: Event<Element>) {
        stressPoint(.emissionArriving)
        // A load first: under contention the token is usually taken, and a failed
        // compare-and-swap would take the line from the thread delivering.
        if pending.load(ordering: .relaxed) == 0 && pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            stressPoint(.emissionTokenTaken)
            if let queue = existingQueue, !queue.consumerHasTakenEveryClaim() {
                // Earlier events are queued, or claimed and about to be: this one goes behind them.
                queue.enqueue(event)
                drain(queue, accounted: 1)
                return
            }
            deliver(event)
            let remaining = pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
            if remaining != 0 { drain(existingQueue!, accounted: remaining) }
            return
        }
        let queue = existingQueue ?? installQueue()
        queue.enqueue(event)
        stressPoint(.emissionQueued)
        if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            drain(queue, accounted: 1)
        }
    }

    /// Delivers queued events while holding the token; `accounted` increments of
    /// `pending` are covered by the caller. Ends once a subtraction brings `pending` to zero.
    @inlinable
    func drain(_ queue: Queue, accounted: Int) {
        var accounted = accounted
        while true {
            while let event = queue.dequeue() {
                deliver(event)
            }
            stressPoint(.emissionDrainExiting)
            let remaining = pending.wrappingSubtract(accounted, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 { return }
            accounted = remaining
        }
    }

    /// The queue, if a sender has made it.
    @inlinable
    var existingQueue: Queue? {
        let bits = queueBits.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<Queue>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// Makes the queue, or takes the one another sender made first.
    @usableFromInline
    func installQueue() -> Queue {
        let made = Unmanaged.passRetained(Queue())
        let bits = UInt(bitPattern: made.toOpaque())
        let (exchanged, existing) = queueBits.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        if exchanged { return made.takeUnretainedValue() }
        made.release()
        return Unmanaged<Queue>.fromOpaque(UnsafeRawPointer(bitPattern: existing)!).takeUnretainedValue()
    }
}
