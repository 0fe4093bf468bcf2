extension ObservableType {
    /// A sequence whose subscription runs `subscribe` with the observer. The observer
    /// given to `subscribe` enforces the grammar: after `error` or `completed` it
    /// ignores everything and the subscription is disposed. The per-event code is
    /// specialized in the caller.
    @inlinable
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        ClosureProducer<Element> { downstream, cancel in
            let sink = CreateSink(downstream, disposing: cancel)
            return (sink, subscribe(AnyObserver<Element> { event in sink.on(event) }))
        }
    }
}

/// `create`'s sink: the gate and the downstream observer in one object, so the observer
/// handed to the subscribe closure captures one reference.
@usableFromInline
final class CreateSink<Element>: SinkGate, @unchecked Sendable {
    @usableFromInline let downstream: AnyObserver<Element>

    @inlinable
    init(_ downstream: AnyObserver<Element>, disposing cancel: Cancelable) {
        self.downstream = downstream
        super.init(disposing: cancel)
    }

    /// `next` while open; a stop event once, then disposal. The stop path is kept out of
    /// line (`end(with:)`), as the other per-element sinks keep theirs (3 of
    /// `chain.create`'s instructions per element). `SinkGate.relay` with the same shape
    /// (a generic `@inline(never)` stop path) counted one instruction more here, so the
    /// per-element sinks keep their own.
    @inlinable
    func on(_ event: Event<Element>) {
        guard case .next = event else { return end(with: event) }
        if isClosed { return }
        downstream.on(event)
    }

    /// Sends the stop event `event` once, then disposes.
    @inlinable @inline(never)
    func end(with event: Event<Element>) {
        finish(with: event, to: downstream)
    }
}
