extension ObservableType {
    /// Runs side effects on events and lifecycle, passing events through unchanged.
    /// `on…` closures run before the event is forwarded, `after…` closures after it;
    /// a thrown error ends the sequence with it.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let before: (Event<Element>) throws -> Void = { event in
            switch event {
            case .next(let element): try onNext?(element)
            case .error(let error): try onError?(error)
            case .completed: try onCompleted?()
            }
        }
        let after: (Event<Element>) throws -> Void = { event in
            switch event {
            case .next(let element): try afterNext?(element)
            case .error(let error): try afterError?(error)
            case .completed: try afterCompleted?()
            }
        }
        return Do(source: asObservable(), before: before, after: after, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose)
    }
}

private final class Do<Element>: Producer<Element> {
    typealias EventHandler = (Event<Element>) throws -> Void

    let source: Observable<Element>
    let before: EventHandler
    let after: EventHandler
    let onSubscribe: (() -> Void)?
    let onSubscribed: (() -> Void)?
    let onDispose: (() -> Void)?

    init(
        source: Observable<Element>, before: @escaping EventHandler, after: @escaping EventHandler,
        onSubscribe: (() -> Void)?, onSubscribed: (() -> Void)?, onDispose: (() -> Void)?
    ) {
        self.source = source
        self.before = before
        self.after = after
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        onSubscribe?()
        let sink = DoSink(before: before, after: after, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        onSubscribed?()
        let onDispose = self.onDispose
        let allSubscriptions = Disposables.create {
            subscription.dispose()
            onDispose?()
        }
        return (sink, allSubscriptions)
    }
}

private final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias EventHandler = (Event<Element>) throws -> Void

    private let before: EventHandler
    private let after: EventHandler

    init(before: @escaping EventHandler, after: @escaping EventHandler, observer: Observer, cancel: Cancelable) {
        self.before = before
        self.after = after
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        do {
            try before(event)
            forwardOn(event)
            try after(event)
            if event.isStopEvent { dispose() }
        } catch {
            forwardOn(.error(error))
            dispose()
        }
    }
}
