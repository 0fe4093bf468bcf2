/// A producer whose `run` is a closure built by an operator's `@inlinable` function: the
/// closure, and the per-event closures it creates, are specialized in the caller's module.
/// `run` receives the downstream observer type-erased and the subscription's disposer,
/// and returns the sink and the upstream subscription, as `Producer.run` does.
@usableFromInline
final class ClosureProducer<Element>: Producer<Element> {
    @usableFromInline typealias Run = (AnyObserver<Element>, Cancelable) -> (sink: Disposable, subscription: Disposable)

    @usableFromInline let runHandler: Run

    @inlinable
    init(_ run: @escaping Run) {
        self.runHandler = run
        super.init()
    }

    @usableFromInline
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        runHandler(AnyObserver(observer), cancel)
    }
}

/// A per-element operator's sink (`MapSink`, `FilterSink`, `CompactMapSink`): a `SinkGate`
/// that receives the upstream's events.
@usableFromInline
protocol UpstreamSink: SinkGate {
    associatedtype Upstream
    func on(_ event: Event<Upstream>)
}

extension ClosureProducer {
    /// The observable whose subscription makes a sink with `makeSink` (given the downstream
    /// observer and the subscription's disposer) and subscribes it to `source` through a
    /// closure that captures only the sink: the closure's context is the sink itself, so a
    /// call loads nothing but the event.
    @inlinable
    static func subscribing<Sink: UpstreamSink>(
        to source: Observable<Sink.Upstream>, with makeSink: @escaping (AnyObserver<Element>, Cancelable) -> Sink
    ) -> Observable<Element> {
        ClosureProducer { downstream, cancel in
            let sink = makeSink(downstream, cancel)
            return (sink, source.subscribe(ClosureObserver<Sink.Upstream> { event in sink.on(event) }))
        }
    }
}
