import Synchronization

extension ObservableType {
    /// Subscribes again each time the trigger sequence sends an element after an error.
    ///
    /// `notificationHandler` is called once per subscription with the sequence of the
    /// source's errors (those of type `Error`; any other error ends the sequence at once)
    /// and returns the trigger sequence, which is subscribed before the source. After the
    /// source fails, the trigger's next element subscribes to the source again; the
    /// trigger's completion completes the sequence, its error fails it. A trigger element
    /// that comes while the source runs does nothing. Resubscriptions that happen while
    /// one is under way run after it, in a loop, so a source that fails at once does not
    /// grow the stack.
    public func retry<Trigger: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> Trigger)
        -> Observable<Element>
    {
        RetryWhen(source: asObservable(), makeTrigger: { notificationHandler($0).map { _ in () } })
    }

    /// `retry(when:)` with every error handed to the notification handler.
    public func retry<Trigger: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> Trigger) -> Observable<Element> {
        RetryWhen(source: asObservable(), makeTrigger: { notificationHandler($0).map { _ in () } })
    }
}

private final class RetryWhen<Element, Error: Swift.Error>: Producer<Element> {
    typealias MakeTrigger = (Observable<Error>) -> Observable<Void>

    private let source: Observable<Element>
    private let makeTrigger: MakeTrigger

    init(source: Observable<Element>, makeTrigger: @escaping MakeTrigger) {
        self.source = source
        self.makeTrigger = makeTrigger
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = RetryWhenSink<Observer, Error>(source: source, observer: observer, cancel: cancel)
        return (sink, sink.run(makeTrigger))
    }
}

private final class RetryWhenSink<Observer: ObserverType, Error: Swift.Error>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let source: Observable<Element>
    /// The source's errors, for the notification handler's sequence.
    private let errors = PublishSubject<Error>()
    /// The trigger's events; an attempt that failed listens to it for its verdict.
    private let trigger = PublishSubject<Void>()
    /// The running attempt: its source subscription and, once it failed, its trigger listener.
    private let attempt = SerialDisposable()
    private let pendingAttempts = Atomic<Int>(0)

    init(source: Observable<Element>, observer: Observer, cancel: Cancelable) {
        self.source = source
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ makeTrigger: (Observable<Error>) -> Observable<Void>) -> Disposable {
        let triggerSubscription = makeTrigger(errors.asObservable()).subscribe(trigger)
        subscribeAgain()
        return Disposables.create(attempt, triggerSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            guard let failure = error as? Error else {
                forwardOn(event)
                dispose()
                return
            }
            guard let current = attempt.disposable as? Attempt else { return }
            current.source.dispose()
            // The listener holds the sink until the attempt is disposed (a new attempt, or
            // the end of the subscription), which removes it from the trigger subject.
            current.verdict.setDisposable(trigger.subscribe { verdict in
                switch verdict {
                case .next: self.subscribeAgain()
                case .error(let error):
                    self.forwardOn(.error(error))
                    self.dispose()
                case .completed:
                    self.forwardOn(.completed)
                    self.dispose()
                }
            })
            errors.on(.next(failure))
        }
    }

    /// Subscribes to the source again, or, when called during a subscription, asks the
    /// caller already subscribing to go round once more.
    private func subscribeAgain() {
        guard pendingAttempts.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        repeat {
            if isDisposed { return }
            let next = Attempt()
            attempt.disposable = next
            next.source.setDisposable(source.subscribe(self))
        } while pendingAttempts.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}

/// One subscription to the source and, once it failed, the listener waiting for the
/// trigger's verdict.
private final class Attempt: Disposable {
    let source = SingleAssignmentDisposable()
    let verdict = SingleAssignmentDisposable()

    func dispose() {
        source.dispose()
        verdict.dispose()
    }
}
