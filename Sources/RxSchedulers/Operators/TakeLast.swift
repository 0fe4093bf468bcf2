extension ObservableType {
    /// The last `count` elements, sent when the source completes (an error is passed on
    /// at once, without them). Holds up to `count` elements meanwhile.
    @inlinable
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var last = RingQueue<Element>(capacity: Swift.min(count, 16))  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    guard count > 0 else { return }
                    last.enqueue(element)
                    if last.count > count { _ = last.dequeue() }
                case .error:
                    gate.finish(with: event, to: downstream)
                case .completed:
                    while let element = last.dequeue() { downstream.on(.next(element)) }
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}
