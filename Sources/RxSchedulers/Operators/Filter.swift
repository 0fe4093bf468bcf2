extension ObservableType {
    /// The elements for which `predicate` is true; a thrown error ends the sequence.
    /// Allocates nothing per element; the per-event code is specialized in the caller.
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        FilterSink<Element>.producer(of: asObservable(), predicate)
    }
}

/// `filter`'s sink, built as ``MapSink`` is: one object captured by the upstream closure,
/// the stop and failure paths out of line.
@usableFromInline
final class FilterSink<Element>: SinkGate, UpstreamSink, @unchecked Sendable {
    @usableFromInline let predicate: (Element) throws -> Bool
    @usableFromInline let downstream: AnyObserver<Element>

    @inlinable
    init(_ predicate: @escaping (Element) throws -> Bool, _ downstream: AnyObserver<Element>, disposing cancel: Cancelable) {
        self.predicate = predicate
        self.downstream = downstream
        super.init(disposing: cancel)
    }

    /// The observable `source.filter(predicate)`, generic over the element type only.
    @inlinable
    static func producer(of source: Observable<Element>, _ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        ClosureProducer<Element>.subscribing(to: source) { FilterSink(predicate, $0, disposing: $1) }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard case .next(let element) = event else { return end(with: event) }
        if isClosed { return }
        let passes: Bool
        do {
            passes = try predicate(element)
        } catch {
            return end(with: .error(error))
        }
        if passes { downstream.on(event) }
    }

    /// Ends the sequence with `event` (an upstream stop event, or the predicate's error),
    /// once.
    @inlinable @inline(never)
    func end(with event: Event<Element>) {
        finish(with: event, to: downstream)
    }
}
