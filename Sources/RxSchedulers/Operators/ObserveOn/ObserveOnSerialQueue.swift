/// The `reference` strategy of observe(on:) on serial dispatch schedulers (RxSwift's
/// algorithm): every event becomes one scheduled block, run in order by the queue.
final class ObserveOnSerialQueueSink<Observer: ObserverType>: ObserveOnSink<Observer>, ObserverType, @unchecked Sendable {
    private let scheduler: SerialDispatchQueueScheduler
    private var deliver: ((ObserveOnSerialQueueSink, Event<Element>)) -> Disposable = { _ in Disposables.create() }

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
        deliver = { pair in
            let (sink, event) = pair
            guard !cancel.isDisposed else { return Disposables.create() }
            sink.observer.on(event)
            if event.isStopEvent { sink.dispose() }
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        guard admits(event) else { return }
        _ = scheduler.schedule((self, event), action: deliver)
    }
}
