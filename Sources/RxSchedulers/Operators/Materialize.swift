extension ObservableType {
    /// Every event of the source as an element, the stop event included, then completion:
    /// a source that fails becomes one that completes.
    @inlinable
    public func materialize() -> Observable<Event<Element>> {
        let source = asObservable()
        return ClosureProducer<Event<Element>> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                downstream.on(.next(event))
                if event.isStopEvent { gate.finish(with: .completed, to: downstream) }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}

extension ObservableType where Element: EventConvertible {
    /// The events a `materialize`d sequence carries, as events again: an `.error` element
    /// ends the sequence with that error, a `.completed` one completes it.
    @inlinable
    public func dematerialize() -> Observable<Element.Element> {
        let source = asObservable()
        return ClosureProducer<Element.Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let carried):
                    gate.relay(carried.event, to: downstream)
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}

/// A type that holds an `Event` (RxSwift's name): `Event` itself, for `dematerialize`.
public protocol EventConvertible {
    /// The type of the event's element.
    associatedtype Element
    /// The event.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// `self`.
    public var event: Event<Element> { self }
}
