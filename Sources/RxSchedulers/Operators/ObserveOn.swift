extension ObservableType {
    /// Delivers every event on `scheduler`, one at a time and in order, with the
    /// default strategy (`ObserveOnStrategy.drain`).
    ///
    /// Guarantees: events reach the observer serialized and in the order they were
    /// sent; a stop event is delivered once; when the subscription is disposed on the
    /// observing serial scheduler, nothing is delivered after `dispose()` returns.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler, strategy: .default)
    }

    /// Delivers every event on `scheduler` with the given hand-off strategy; the
    /// guarantees are those of `observe(on:)` for every strategy.
    public func observe(on scheduler: ImmediateSchedulerType, strategy: ObserveOnStrategy) -> Observable<Element> {
        ObserveOn(source: asObservable(), scheduler: scheduler, strategy: strategy)
    }
}

private final class ObserveOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType
    private let strategy: ObserveOnStrategy

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, strategy: ObserveOnStrategy) {
        self.source = source
        self.scheduler = scheduler
        self.strategy = strategy
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        switch strategy.kind {
        case .drain:
            let sink = ObserveOnDrainSink(scheduler: scheduler, batchSize: strategy.batchSize, observer: observer, cancel: cancel)
            return (sink, source.subscribe(sink))
        case .reference:
            if let serialScheduler = scheduler as? SerialDispatchQueueScheduler {
                let sink = ObserveOnSerialQueueSink(scheduler: serialScheduler, observer: observer, cancel: cancel)
                return (sink, source.subscribe(sink))
            }
            let sink = ObserveOnRecursiveSink(scheduler: scheduler, observer: observer, cancel: cancel)
            return (sink, source.subscribe(sink))
        }
    }
}
