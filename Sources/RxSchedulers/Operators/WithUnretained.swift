extension ObservableType {
    /// Each element combined by `resultSelector` with `object`, which is held weakly: the
    /// first element that arrives after `object` is gone completes the sequence instead.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        let source = asObservable()
        return ClosureProducer<Out> { [weak object] downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { [weak object] event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    guard let object else { return gate.finish(with: .completed, to: downstream) }
                    downstream.on(.next(resultSelector(object, element)))
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }

    /// Each element paired with `object`, held weakly (see `withUnretained(_:resultSelector:)`).
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }
}
