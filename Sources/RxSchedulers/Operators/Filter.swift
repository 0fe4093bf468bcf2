extension ObservableType {
    /// The elements for which `predicate` is true; a thrown error ends the sequence.
    /// Allocates nothing per element; the per-event code is specialized in the caller.
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    let passes: Bool
                    do {
                        passes = try predicate(element)
                    } catch {
                        gate.finish(with: .error(error), to: downstream)
                        return
                    }
                    if passes { downstream.on(event) }
                case .error, .completed:
                    gate.finish(with: event, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}
