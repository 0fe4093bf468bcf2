extension ObservableType {
    /// One element when the source completes: `mapResult` of the elements folded into
    /// `seed` with `accumulator`. A thrown error ends the sequence.
    @inlinable
    public func reduce<A, Result>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, mapResult: @escaping (A) throws -> Result
    ) -> Observable<Result> {
        let source = asObservable()
        return ClosureProducer<Result> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var accumulated = seed  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    do {
                        accumulated = try accumulator(accumulated, element)
                    } catch {
                        gate.finish(with: .error(error), to: downstream)
                    }
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    let result: Result
                    do {
                        result = try mapResult(accumulated)
                    } catch {
                        return gate.finish(with: .error(error), to: downstream)
                    }
                    downstream.on(.next(result))
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }

    /// One element when the source completes: the elements folded into `seed` with
    /// `accumulator`. A thrown error ends the sequence.
    @inlinable
    public func reduce<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        reduce(seed, accumulator: accumulator, mapResult: { $0 })
    }
}
