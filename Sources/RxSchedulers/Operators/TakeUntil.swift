extension ObservableType {
    /// The source's elements until `other` sends an element: then completes. An error
    /// from `other` ends it with that error; `other` completing changes nothing. `other`
    /// is subscribed first, as in RxSwift.
    public func take<Other: ObservableType>(until other: Other) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable())
    }

    /// Elements until `predicate` holds: completes at the first element that satisfies it
    /// (`behavior` says whether that element is sent).
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        take(while: { try !predicate($0) }, behavior: behavior)
    }
}

private final class TakeUntil<Element, OtherElement>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<OtherElement>

    init(source: Observable<Element>, other: Observable<OtherElement>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeUntilSink<Observer>(observer: observer, cancel: cancel)
        return (sink, sink.run(source, until: other))
    }
}

/// Events of both sequences go downstream under one recursive lock, one at a time.
private final class TakeUntilSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let lock = Lock(recursive: true)

    func run<OtherElement>(_ source: Observable<Element>, until other: Observable<OtherElement>) -> Disposable {
        let otherSubscription = SingleAssignmentDisposable()
        otherSubscription.setDisposable(
            other.subscribe(
                AnyObserver { [self] event in
                    lock.lock()
                    defer { lock.unlock() }
                    switch event {
                    case .next:
                        forwardOn(.completed)
                        dispose()
                    case .error(let error):
                        forwardOn(.error(error))
                        dispose()
                    case .completed:
                        otherSubscription.dispose()
                    }
                }))
        return Disposables.create(otherSubscription, source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
