extension ObservableType {
    /// A sequence tied to a resource: each subscription makes one with `resourceFactory`,
    /// subscribes to the sequence `observableFactory` makes from it, and disposes the
    /// resource with the subscription (after the sequence's own subscription). An error
    /// thrown by either factory is the sequence's error (a resource already made is
    /// disposed).
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var resource: Disposable = Disposables.create()
            let subscription: Disposable
            do {
                let made = try resourceFactory()
                resource = made
                let source = try observableFactory(made)
                subscription = source.subscribe(ClosureObserver<Element> { gate.relay($0, to: downstream) })
            } catch {
                subscription = Disposables.create()
                gate.finish(with: .error(error), to: downstream)
            }
            return (gate, Disposables.create(subscription, resource))
        }
    }
}
