import Synchronization

extension ObservableType {
    /// Delivers every event on `scheduler`, one at a time and in order, with the
    /// default strategy (`ObserveOnStrategy.drain`); on a `VirtualTimeScheduler` (a
    /// `TestScheduler`), with RxSwift's algorithm (`ObserveOnStrategy.reference`), whose
    /// one scheduled action per event gives each event RxSwift's virtual time.
    ///
    /// Guarantees: events reach the observer serialized and in the order they were
    /// sent; a stop event is delivered once; when the subscription is disposed on the
    /// observing serial scheduler, nothing is delivered after `dispose()` returns.
    @inlinable
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler, strategy: scheduler is VirtualTimeSchedulerMarker ? .reference : .default)
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
        let serialQueue = SerialQueueObservableCount.counting(scheduler)
        // Built here so that the sink's per-event code is specialized in the caller.
        return ClosureProducer<Element> { downstream, cancel in
            withExtendedLifetime(serialQueue) {}  // counted while the observable lives
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
    private let serialQueue: SerialQueueObservableCount?

    @usableFromInline
    init(source: Observable<Element>, scheduler: ImmediateSchedulerType, alwaysGeneric: Bool) {
        self.source = source
        self.scheduler = scheduler
        self.alwaysGeneric = alwaysGeneric
        self.serialQueue = alwaysGeneric ? nil : SerialQueueObservableCount.counting(scheduler)
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

/// Counts, while it lives, an observable that `observe(on:)` made for a
/// `SerialDispatchQueueScheduler` with the serial-queue implementation (`drain`, or
/// `reference`'s per-event blocks): what `Resources.numberOfSerialDispatchQueueObservables`
/// reports. Made once per observable, never per subscription or event.
@usableFromInline
final class SerialQueueObservableCount {
    private static let live = Atomic<Int32>(0)

    /// The number of these alive now.
    static var total: Int32 { live.load(ordering: .relaxed) }

    /// A count for an observable on `scheduler`, or `nil` if it is not a serial dispatch queue.
    @usableFromInline
    static func counting(_ scheduler: ImmediateSchedulerType) -> SerialQueueObservableCount? {
        scheduler is SerialDispatchQueueScheduler ? SerialQueueObservableCount() : nil
    }

    private init() { Self.live.wrappingAdd(1, ordering: .relaxed) }

    deinit { Self.live.wrappingSubtract(1, ordering: .relaxed) }
}
