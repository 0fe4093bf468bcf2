import Synchronization

/// observe(on:) for serial dispatch schedulers: every event becomes one scheduled
/// block, which the serial queue runs in order.
final class ObserveOnSerialQueue<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: SerialDispatchQueueScheduler

    init(source: Observable<Element>, scheduler: SerialDispatchQueueScheduler) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ObserveOnSerialQueueSink(scheduler: scheduler, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class ObserveOnSerialQueueSink<Observer: ObserverType>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler
    private let observer: Observer
    private let cancel: Cancelable
    private let stopped = Atomic<Bool>(false)
    private var deliver: ((ObserveOnSerialQueueSink, Event<Element>)) -> Disposable = { _ in Disposables.create() }

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        self.observer = observer
        self.cancel = cancel
        deliver = { pair in
            let (sink, event) = pair
            guard !cancel.isDisposed else { return Disposables.create() }
            sink.observer.on(event)
            if event.isStopEvent { sink.dispose() }
            return Disposables.create()
        }
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        } else if stopped.load(ordering: .relaxed) {
            return
        }
        _ = scheduler.scheduleInternal((self, event), action: deliver)
    }

    func dispose() {
        stopped.store(true, ordering: .releasing)
        cancel.dispose()
    }
}
