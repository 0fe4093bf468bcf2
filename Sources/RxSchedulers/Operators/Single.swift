extension ObservableType {
    /// The one element of the source, passed on as it arrives, then completion: a second
    /// element is `RxError.moreThanOneElement`, completion without one `RxError.noElements`.
    @inlinable
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// The one element for which `predicate` is true, as `single()` (the others are
    /// ignored). A thrown error ends the sequence.
    @inlinable
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var seen = false  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        return gate.finish(with: .error(error), to: downstream)
                    }
                    if seen { return gate.finish(with: .error(RxError.moreThanOneElement), to: downstream) }
                    seen = true
                    downstream.on(event)
                case .error:
                    gate.finish(with: event, to: downstream)
                case .completed:
                    gate.finish(with: seen ? .completed : .error(RxError.noElements), to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}
