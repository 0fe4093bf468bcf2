extension ObservableType {
    /// The element at `index` (0 is the first), then completion. If the source completes
    /// before sending it, `RxError.argumentOutOfRange`.
    @inlinable
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "index can't be negative")
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var remaining = index  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next:
                    if remaining == 0 {
                        downstream.on(event)
                        gate.finish(with: .completed, to: downstream)
                    }
                    remaining -= 1
                case .error:
                    gate.finish(with: event, to: downstream)
                case .completed:
                    gate.finish(with: .error(RxError.argumentOutOfRange), to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}
