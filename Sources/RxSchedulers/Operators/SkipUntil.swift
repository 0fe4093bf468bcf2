extension ObservableType {
    /// The elements that arrive once `other` has sent an element; those before are skipped.
    /// An error of either ends the sequence. The source's completion is passed on only if
    /// `other` had sent an element by then (as RxSwift does); `other`'s completion changes
    /// nothing. `other` is subscribed after the source.
    @inlinable
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        let source = asObservable()
        let other = other.asObservable()
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            // Recursive, as in RxSwift; events reach the observer under it.
            let lock = Lock(recursive: true)
            var forwarding = false  // under `lock`
            let sourceSubscription = source.subscribe(
                ClosureObserver<Element> { event in
                    lock.lock()
                    if gate.isClosed {
                        lock.unlock()
                        return
                    }
                    switch event {
                    case .next:
                        if forwarding { downstream.on(event) }
                        lock.unlock()
                    case .error:
                        let ended = gate.sendStop(event, to: downstream)
                        lock.unlock()
                        if ended { gate.dispose() }
                    case .completed:
                        let ended = gate.stop()
                        if ended && forwarding { downstream.on(event) }
                        lock.unlock()
                        if ended { gate.dispose() }
                    }
                })
            let otherSubscription = SingleAssignmentDisposable()
            otherSubscription.setDisposable(
                other.subscribe(
                    ClosureObserver<Source.Element> { event in
                        lock.lock()
                        switch event {
                        case .next:
                            forwarding = true
                            lock.unlock()
                            otherSubscription.dispose()
                        case .error(let error):
                            let ended = gate.sendStop(.error(error), to: downstream)
                            lock.unlock()
                            if ended { gate.dispose() }
                        case .completed:
                            lock.unlock()
                            otherSubscription.dispose()
                        }
                    }))
            return (gate, Disposables.create(sourceSubscription, otherSubscription))
        }
    }
}
