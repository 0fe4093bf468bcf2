/// The `reference` strategy of observe(on:) on other schedulers (RxSwift's algorithm):
/// events are queued under a lock; the first event of a burst starts a recursive
/// schedule that delivers one event per step until the queue is empty.
final class ObserveOnRecursiveSink<Observer: ObserverType>: ObserveOnSink<Observer>, ObserverType, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType
    private let lock = Lock()
    private var queue = RingQueue<Event<Element>>()
    private var delivering = false
    /// The newest recursion and its generation. Producers that call `on` concurrently
    /// (outside the Rx grammar, but it must not hang) may install recursions out of
    /// order; an older one has always finished, so only the newest is kept.
    private var recursion: Disposable?
    private var generation: UInt64 = 0
    private var disposed = false

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        guard admits(event) else { return }
        let started: UInt64? = lock.performLocked {
            queue.enqueue(event)
            if delivering { return nil }
            delivering = true
            generation &+= 1
            return generation
        }
        guard let started else { return }
        let newRecursion = scheduler.scheduleRecursive((), action: deliverNext)
        let obsolete: Disposable? = lock.performLocked {
            if disposed { return newRecursion }
            if started != generation { return newRecursion }
            let previous = recursion
            recursion = newRecursion
            return previous
        }
        obsolete?.dispose()
    }

    private func deliverNext(_ state: Void, _ recurse: (()) -> Void) {
        let event: Event<Element>? = lock.performLocked {
            if let event = queue.dequeue() { return event }
            delivering = false
            return nil
        }
        guard let event else { return }
        guard !cancel.isDisposed else { return }
        observer.on(event)
        if event.isStopEvent {
            dispose()
            return
        }
        let more: Bool = lock.performLocked {
            if !queue.isEmpty { return true }
            delivering = false
            return false
        }
        if more { recurse(()) }
    }

    override func dispose() {
        super.dispose()
        let last: Disposable? = lock.performLocked {
            disposed = true
            let last = recursion
            recursion = nil
            return last
        }
        last?.dispose()
    }
}
