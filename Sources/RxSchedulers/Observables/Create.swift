extension ObservableType {
    /// A sequence whose subscription runs `subscribe` with the observer. The observer
    /// given to `subscribe` enforces the grammar: after `error` or `completed` it
    /// ignores everything and the subscription is disposed. The per-event code is
    /// specialized in the caller.
    @inlinable
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let observer = AnyObserver<Element> { event in gate.relay(event, to: downstream) }
            return (gate, subscribe(observer))
        }
    }
}
