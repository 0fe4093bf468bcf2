extension ObservableType {
    /// A sequence that completes at once.
    public static func empty() -> Observable<Element> {
        Terminal(event: .completed)
    }

    /// A sequence that fails at once with `error`.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        Terminal(event: .error(error))
    }

    /// A sequence that never sends anything.
    public static func never() -> Observable<Element> {
        Never()
    }
}

/// Sends one stop event during subscription.
private final class Terminal<Element>: Producer<Element> {
    private let event: Event<Element>

    init(event: Event<Element>) {
        self.event = event
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(event)
        return Disposables.create()
    }
}

private final class Never<Element>: Producer<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}
