extension ObservableType {
    /// The first `count` elements, then completion (at once when `count` is 0).
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "take count can't be negative")
        if count == 0 { return .empty() }
        return TakeCount(source: asObservable(), count: count)
    }
}

private final class TakeCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeCountSink(remaining: count, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var remaining: Int

    init(remaining: Int, observer: Observer, cancel: Cancelable) {
        self.remaining = remaining
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard remaining > 0 else { return }
            remaining -= 1
            forwardOn(event)
            if remaining == 0 {
                forwardOn(.completed)
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
