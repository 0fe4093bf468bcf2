extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// This completable, then, once it completed, `second`'s element. An error of this
    /// completable ends it without subscribing to `second`.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        PrimitiveSequence(raw: andThen(second.asObservable()))
    }

    /// This completable, then `second` (see `andThen(_:)` of a single).
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        PrimitiveSequence(raw: andThen(second.asObservable()))
    }

    /// This completable, then `second` (see `andThen(_:)` of a single).
    public func andThen(_ second: Completable) -> Completable {
        PrimitiveSequence(raw: andThen(second.asObservable()))
    }

    /// This completable, then `second`'s events (see `andThen(_:)` of a single).
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        let first = primitiveSequence.asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            // Holds the completable's subscription, then `second`'s (assigning it disposes
            // the completable's, which has ended).
            let subscription = SerialDisposable()
            let firstSubscription = SingleAssignmentDisposable()
            subscription.disposable = firstSubscription
            let onFirst = ClosureObserver<Never> { event in
                switch event {
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    subscription.disposable = second.subscribe(ClosureObserver<Element> { gate.relay($0, to: downstream) })
                }
            }
            firstSubscription.setDisposable(first.subscribe(onFirst))
            return (gate, subscription)
        }
    }
}
