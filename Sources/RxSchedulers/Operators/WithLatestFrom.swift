extension ObservableType {
    /// For each element of this sequence, the result of `resultSelector` over it and the
    /// latest element of `second`; elements that arrive before `second` has sent one are
    /// dropped. Completes when this sequence completes (whether or not `second` has); an
    /// error of either ends it. `second` is subscribed first. The per-element code is
    /// specialized in the caller; nothing is allocated per element.
    @inlinable
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        let first = asObservable()
        let second = second.asObservable()
        return ClosureProducer<ResultType> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            // Recursive, as in RxSwift: an observer that makes a source emit synchronously
            // does not deadlock. Events reach the observer under it; nothing is disposed under it.
            let lock = Lock(recursive: true)
            var latest: Source.Element?  // under `lock`
            func stop(with event: Event<ResultType>) {
                lock.lock()
                let ended = gate.sendStop(event, to: downstream)
                lock.unlock()
                if ended { gate.dispose() }
            }
            let secondSubscription = SingleAssignmentDisposable()
            secondSubscription.setDisposable(
                second.subscribe(
                    ClosureObserver { event in
                        switch event {
                        case .next(let value):
                            lock.lock()
                            latest = value
                            lock.unlock()
                        case .error(let error):
                            stop(with: .error(error))
                        case .completed:
                            secondSubscription.dispose()
                        }
                    }))
            let firstSubscription = first.subscribe(
                ClosureObserver { event in
                    switch event {
                    case .next(let value):
                        lock.lock()
                        guard !gate.isClosed, let latest else {
                            lock.unlock()
                            return
                        }
                        let result: ResultType
                        do {
                            result = try resultSelector(value, latest)
                        } catch {
                            lock.unlock()
                            stop(with: .error(error))
                            return
                        }
                        downstream.on(.next(result))
                        lock.unlock()
                    case .error(let error):
                        stop(with: .error(error))
                    case .completed:
                        stop(with: .completed)
                    }
                })
            return (gate, Disposables.create(firstSubscription, secondSubscription))
        }
    }

    /// The latest element of `second` for each element of this sequence (see
    /// `withLatestFrom(_:resultSelector:)`).
    @inlinable
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        withLatestFrom(second) { $1 }
    }
}
