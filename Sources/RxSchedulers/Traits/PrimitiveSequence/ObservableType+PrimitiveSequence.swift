extension ObservableType {
    /// The source as a `Single`: its one element, sent when it completes. A second element
    /// fails it with `RxError.moreThanOneElement` at once, completion without one with
    /// `RxError.noElements`.
    public func asSingle() -> Single<Element> {
        PrimitiveSequence(raw: lastElement(allowingNone: false))
    }

    /// The source as a `Maybe`: its element, if any, sent when it completes. A second
    /// element fails it with `RxError.moreThanOneElement` at once.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: lastElement(allowingNone: true))
    }

    /// The source's first element, or `nil` if it completes without one, as a `Single`;
    /// the source is disposed once the first element arrived.
    public func first() -> Single<Element?> {
        let source = asObservable()
        let first = ClosureProducer<Element?> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    downstream.on(.next(element))
                    gate.finish(with: .completed, to: downstream)
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    downstream.on(.next(nil))
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
        return PrimitiveSequence(raw: first)
    }

    /// At most one element, held until the source completes; a second element is
    /// `RxError.moreThanOneElement`, none (unless `allowingNone`) `RxError.noElements`.
    private func lastElement(allowingNone: Bool) -> Observable<Element> {
        let source = asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var held: Element?  // the upstream's serialized calls only
            let upstream = ClosureObserver<Element> { event in
                if gate.isClosed { return }
                switch event {
                case .next(let element):
                    if held != nil { return gate.finish(with: .error(RxError.moreThanOneElement), to: downstream) }
                    held = element
                case .error(let error):
                    gate.finish(with: .error(error), to: downstream)
                case .completed:
                    if let element = held {
                        downstream.on(.next(element))
                    } else if !allowingNone {
                        return gate.finish(with: .error(RxError.noElements), to: downstream)
                    }
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, source.subscribe(upstream))
        }
    }
}

extension ObservableType where Element == Never {
    /// The source, which has no elements, as a `Completable`.
    public func asCompletable() -> Completable {
        PrimitiveSequence(raw: asObservable())
    }
}
