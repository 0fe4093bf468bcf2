import Synchronization

/// States of the drain token's hand-over when a full batch yields.
@usableFromInline
enum Handoff {
    @inlinable static var idle: Int { 0 }
    /// The drainer is inside `scheduler.schedule` to yield.
    @inlinable static var yielding: Int { 1 }
    /// The scheduled continuation ran inline and handed the token back.
    @inlinable static var handedBack: Int { 2 }
}

/// The `drain` strategy of observe(on:).
///
/// Producers put events in a lock-free MPSC queue and increment `pending`; the one that
/// raises it from zero schedules a drain. The drain delivers everything queued, polls
/// the queue once more 1 µs later for a producer that is mid-stream (`SpinWait`; not when
/// the scheduler ran the drain inline, inside the producer's own call, as the main
/// scheduler does on the main queue: nothing more can come from that producer until the
/// drain returns, and the wait would cost every event a microsecond), then
/// subtracts what it has accounted for; a non-zero result means events arrived meanwhile
/// and it goes round again, so no event is left behind and at most one drain runs at a
/// time (which serializes the observer). After `batchSize` deliveries the drain
/// reschedules itself, keeping the token, so other work on the scheduler runs.
///
/// Cost per event: one queue slot (no allocation in steady state), one atomic add, and
/// one atomic load of the disposed flag on delivery. Per burst: one scheduled block.
///
/// Generic over the element with a type-erased downstream, and inlinable: created by
/// `observe(on:strategy:)` in the caller's module, its per-event code runs specialized.
@usableFromInline
final class ObserveOnDrainSink<Element>: ObserveOnSink<AnyObserver<Element>>, ObserverType, @unchecked Sendable {
    @usableFromInline let scheduler: ImmediateSchedulerType
    @usableFromInline let batchSize: Int
    @usableFromInline let queue = MPSCQueue<Event<Element>>()
    @usableFromInline let handoff = Atomic<Int>(Handoff.idle)
    /// Set by a producer while it schedules a drain from `on`: a drain that finds it set
    /// runs inline in that call. A hint only (relaxed): a drain started meanwhile on
    /// another thread that sees it merely skips its poll.
    @usableFromInline let scheduledFromProducer = Atomic<Bool>(false)
    /// `pending`, which every event increments, on a line of its own: the drain reads the
    /// fields above on every delivery.
    @usableFromInline let paddingBefore = CacheLinePadding()
    @usableFromInline let pending = Atomic<Int>(0)
    @usableFromInline let paddingAfter = CacheLinePadding()

    @inlinable
    init(scheduler: ImmediateSchedulerType, batchSize: Int, observer: AnyObserver<Element>, cancel: Cancelable) {
        self.scheduler = scheduler
        self.batchSize = batchSize
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard admits(event) else { return }
        stressPoint(.drainAdmitted)
        queue.enqueue(event)
        stressPoint(.drainEnqueued)
        if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            scheduledFromProducer.store(true, ordering: .relaxed)
            scheduleDrain(accounted: 1)
            scheduledFromProducer.store(false, ordering: .relaxed)
        }
    }

    @inlinable
    func scheduleDrain(accounted: Int) {
        _ = scheduler.schedule((self, accounted)) { sink, accounted in
            if sink.handoff.compareExchange(expected: Handoff.yielding, desired: Handoff.handedBack, ordering: .acquiringAndReleasing).exchanged {
                return Disposables.create()
            }
            sink.drain(accounted: accounted, pollsForMore: !sink.scheduledFromProducer.load(ordering: .relaxed))
            return Disposables.create()
        }
    }

    /// Runs with the drain token; `accounted` increments of `pending` are covered by it.
    /// With `pollsForMore`, an empty queue is polled once more 1 µs later before the drain
    /// accounts for what it delivered.
    @inlinable
    func drain(accounted: Int, pollsForMore: Bool) {
        var accounted = accounted
        while true {
            var delivered = 0
            var batchFull = false
            while let event = queue.dequeue() ?? (pollsForMore ? SpinWait.poll(queue.dequeue) : nil) {
                if isCancelled { continue }
                stressPoint(.drainDelivering)
                observer.on(event)
                if event.isStopEvent {
                    dispose()
                    continue
                }
                delivered += 1
                if delivered == batchSize {
                    batchFull = true
                    break
                }
            }
            if batchFull {
                if yield(accounted: accounted) { return }
                continue
            }
            stressPoint(.drainExiting)
            let remaining = pending.wrappingSubtract(accounted, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 { return }
            accounted = remaining
        }
    }

    /// Reschedules the drain; returns `false` when the scheduler ran the continuation
    /// inline, in which case the caller keeps draining (no stack growth).
    @inlinable
    func yield(accounted: Int) -> Bool {
        handoff.store(Handoff.yielding, ordering: .releasing)
        scheduleDrain(accounted: accounted)
        if handoff.compareExchange(expected: Handoff.yielding, desired: Handoff.idle, ordering: .acquiringAndReleasing).exchanged {
            return true
        }
        handoff.store(Handoff.idle, ordering: .releasing)
        return false
    }
}
