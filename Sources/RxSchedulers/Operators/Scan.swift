extension ObservableType {
    /// Each intermediate result of folding the elements into `seed` with `accumulator`,
    /// which updates the accumulated value in place; a thrown error ends the sequence
    /// with it. Each subscription starts again from `seed`. The accumulated value lives
    /// in the subscription (one allocation when it subscribes), nothing per element.
    @inlinable
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void)
        -> Observable<Accumulate>
    {
        let source = asObservable()
        return ClosureProducer<Accumulate> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            // Touched only by the upstream's calls, which Rx's grammar serializes.
            var accumulated = seed
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    do {
                        try accumulator(&accumulated, element)
                    } catch {
                        gate.finish(with: .error(error), to: downstream)
                        return
                    }
                    downstream.on(.next(accumulated))
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }

    /// Each intermediate result of folding the elements into `seed` with `accumulator`
    /// (the new accumulated value from the last one and the element); a thrown error ends
    /// the sequence with it. Each subscription starts again from `seed`.
    @inlinable
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate)
        -> Observable<Accumulate>
    {
        scan(into: seed) { accumulated, element in accumulated = try accumulator(accumulated, element) }
    }
}
