import Synchronization

/// observe(on:) for any scheduler: events are queued under a lock; the first event
/// of a burst starts a recursive schedule that delivers one event per step until the
/// queue is empty.
final class ObserveOnRecursive<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ObserveOnRecursiveSink(scheduler: scheduler, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class ObserveOnRecursiveSink<Observer: ObserverType>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let observer: Observer
    private let cancel: Cancelable
    private let lock = Lock()
    private var queue = RingQueue<Event<Element>>()
    private var delivering = false
    private let stopped = Atomic<Bool>(false)
    private let schedule = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        self.observer = observer
        self.cancel = cancel
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        } else if stopped.load(ordering: .relaxed) {
            return
        }
        let start: Bool = lock.performLocked {
            queue.enqueue(event)
            if delivering { return false }
            delivering = true
            return true
        }
        if start {
            schedule.disposable = scheduler.scheduleRecursive((), action: deliverNext)
        }
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

    func dispose() {
        stopped.store(true, ordering: .releasing)
        cancel.dispose()
        schedule.dispose()
    }
}
