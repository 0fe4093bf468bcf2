extension ObservableType {
    /// The elements from the first for which `predicate` is false on: the ones before it
    /// are skipped, and `predicate` is not called again. A thrown error ends the sequence.
    @inlinable
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var skipping = true  // touched by the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                guard case .next(let element) = event else { return gate.relay(event, to: downstream) }
                if skipping {
                    do {
                        skipping = try predicate(element)
                    } catch {
                        return gate.finish(with: .error(error), to: downstream)
                    }
                    if skipping { return }
                }
                downstream.on(event)
            }
            return (gate, source.subscribe(upstream))
        }
    }
}
