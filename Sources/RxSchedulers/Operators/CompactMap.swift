extension ObservableType {
    /// Each element transformed by `transform`, leaving out those it maps to `nil`; a
    /// thrown error ends the sequence with it. Allocates nothing per element; the
    /// per-event code is specialized in the caller.
    @inlinable
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        let source = asObservable()
        return ClosureProducer<Result> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    let result: Result?
                    do {
                        result = try transform(element)
                    } catch {
                        gate.finish(with: .error(error), to: downstream)
                        return
                    }
                    if let result { downstream.on(.next(result)) }
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
