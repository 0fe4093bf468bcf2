extension ObservableType {
    /// Every element of the source, as one array, when it completes: a `Single`. An error
    /// is passed on without the array.
    public func toArray() -> Single<[Element]> {
        let source = asObservable()
        let collected = ClosureProducer<[Element]> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var elements: [Element] = []  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    elements.append(element)
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    downstream.on(.next(elements))
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
        return PrimitiveSequence(raw: collected)
    }
}
