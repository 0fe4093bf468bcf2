extension ObservableType {
    /// Each element transformed by `transform`; a thrown error ends the sequence with it.
    /// Allocates nothing per element; the per-event code is specialized in the caller.
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        MapSink<Element, Result>.producer(of: asObservable(), transform)
    }
}

/// `map`'s sink: its gate, the transform and the downstream observer in one object, so
/// the upstream closure captures one reference (the object is the closure's context; its
/// forwarder loads nothing) and the per-event code reads the fields it needs.
///
/// The stop and failure paths are kept out of line (`@inline(never)`), so the `next`
/// path saves and restores only the registers the transform's call needs.
@usableFromInline
final class MapSink<Element, Result>: SinkGate, UpstreamSink, @unchecked Sendable {
    @usableFromInline let transform: (Element) throws -> Result
    @usableFromInline let downstream: AnyObserver<Result>

    @inlinable
    init(_ transform: @escaping (Element) throws -> Result, _ downstream: AnyObserver<Result>, disposing cancel: Cancelable) {
        self.transform = transform
        self.downstream = downstream
        super.init(disposing: cancel)
    }

    /// The observable `source.map(transform)`. Built here, generic over the element types
    /// only, so a program has one specialized copy per pair of element types whatever the
    /// source's static type.
    @inlinable
    static func producer(of source: Observable<Element>, _ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        ClosureProducer<Result>.subscribing(to: source) { MapSink(transform, $0, disposing: $1) }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard case .next(let element) = event else { return end(with: event) }
        if isClosed { return }
        let result: Result
        do {
            result = try transform(element)
        } catch {
            return end(with: .error(error))
        }
        downstream.on(.next(result))
    }

    /// Ends the sequence with `event`'s stop event (an upstream `error` or `completed`, or
    /// the transform's error), once.
    @inlinable @inline(never)
    func end(with event: Event<Element>) {
        finish(stopOf: event, to: downstream)
    }
}
