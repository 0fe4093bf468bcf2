extension ObservableType {
    /// The source's elements, or `default` alone if it completes without any.
    @inlinable
    public func ifEmpty(default: Element) -> Observable<Element> {
        ifEmpty(switchTo: Observable.just(`default`))
    }

    /// The source's elements, or, if it completes without any, those of `other`, which is
    /// subscribed then (the source's subscription is disposed first).
    @inlinable
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let current = SerialDisposable()
            var empty = true  // the upstream's serialized calls only
            let first = SingleAssignmentDisposable()
            current.disposable = first
            first.setDisposable(
                source.subscribe(
                    ClosureObserver<Element> { event in
                        if gate.isClosed { return }
                        switch event {
                        case .next:
                            empty = false
                            downstream.on(event)
                        case .error:
                            gate.finish(with: event, to: downstream)
                        case .completed:
                            guard empty else { return gate.finish(with: .completed, to: downstream) }
                            let second = SingleAssignmentDisposable()
                            current.disposable = second
                            second.setDisposable(other.subscribe(ClosureObserver<Element> { event in gate.relay(event, to: downstream) }))
                        }
                    }))
            return (gate, current)
        }
    }
}
