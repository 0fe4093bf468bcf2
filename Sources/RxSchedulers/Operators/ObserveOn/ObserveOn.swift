extension ObservableType {
    /// Delivers every event on `scheduler`, one at a time and in order, with the
    /// default strategy (`ObserveOnStrategy.drain`).
    ///
    /// Guarantees: events reach the observer serialized and in the order they were
    /// sent; a stop event is delivered once; when the subscription is disposed on the
    /// observing serial scheduler, nothing is delivered after `dispose()` returns.
    @inlinable
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler, strategy: .default)
    }

    /// Delivers every event on `scheduler` with the given hand-off strategy; the
    /// guarantees are those of `observe(on:)` for every strategy.
    @inlinable
    public func observe(on scheduler: ImmediateSchedulerType, strategy: ObserveOnStrategy) -> Observable<Element> {
        let source = asObservable()
        guard strategy.kind == .drain else {
            return ObserveOnReference(source: source, scheduler: scheduler, alwaysGeneric: strategy.kind == .referenceGeneric)
        }
        let batchSize = strategy.batchSize
        // Built here so that the sink's per-event code is specialized in the caller.
        return ClosureProducer<Element> { downstream, cancel in
            let sink = ObserveOnDrainSink(scheduler: scheduler, batchSize: batchSize, observer: downstream, cancel: cancel)
            let upstream = ClosureObserver<Element> { event in sink.on(event) }
            return (sink, source.subscribe(upstream))
        }
    }
}

/// The `reference` strategy: RxSwift's algorithm for the scheduler at hand; with
/// `alwaysGeneric` (`referenceGeneric`), its generic algorithm on every scheduler.
@usableFromInline
final class ObserveOnReference<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType
    private let alwaysGeneric: Bool

    @usableFromInline
    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, alwaysGeneric: Bool) {
        self.source = source
        self.scheduler = scheduler
        self.alwaysGeneric = alwaysGeneric
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        if !alwaysGeneric, let serialScheduler = scheduler as? SerialDispatchQueueScheduler {
            let sink = ObserveOnSerialQueueSink(scheduler: serialScheduler, observer: observer, cancel: cancel)
            return (sink, source.subscribe(sink))
        }
        let sink = ObserveOnRecursiveSink(scheduler: scheduler, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}
