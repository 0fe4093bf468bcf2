extension ObservableType {
    /// Each element transformed by `transform`, leaving out those it maps to `nil`; a
    /// thrown error ends the sequence with it. Allocates nothing per element; the
    /// per-event code is specialized in the caller.
    @inlinable
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMapSink<Element, Result>.producer(of: asObservable(), transform)
    }
}

/// `compactMap`'s sink, built as ``MapSink`` is: one object captured by the upstream
/// closure, the stop and failure paths out of line.
@usableFromInline
final class CompactMapSink<Element, Result>: SinkGate, UpstreamSink, @unchecked Sendable {
    @usableFromInline let transform: (Element) throws -> Result?
    @usableFromInline let downstream: AnyObserver<Result>

    @inlinable
    init(_ transform: @escaping (Element) throws -> Result?, _ downstream: AnyObserver<Result>, disposing cancel: Cancelable) {
        self.transform = transform
        self.downstream = downstream
        super.init(disposing: cancel)
    }

    /// The observable `source.compactMap(transform)`, generic over the element types only.
    @inlinable
    static func producer(of source: Observable<Element>, _ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        ClosureProducer<Result>.subscribing(to: source) { CompactMapSink(transform, $0, disposing: $1) }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard case .next(let element) = event else { return end(with: event) }
        if isClosed { return }
        let result: Result?
        do {
            result = try transform(element)
        } catch {
            return end(with: .error(error))
        }
        if let result { downstream.on(.next(result)) }
    }

    /// Ends the sequence with `event`'s stop event (an upstream `error` or `completed`, or
    /// the transform's error), once.
    @inlinable @inline(never)
    func end(with event: Event<Element>) {
        finish(stopOf: event, to: downstream)
    }
}
