extension ObservableType {
    /// Each element with its index in the sequence, from 0.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Enumerated(source: asObservable())
    }
}

private final class Enumerated<Element>: Producer<(index: Int, element: Element)> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == (index: Int, element: Element) {
        let sink = EnumeratedSink<Element, Observer>(observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class EnumeratedSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == (index: Int, element: Element) {
    /// Only the source's (serialized) events touch it.
    private var index = 0

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let (next, overflow) = index.addingReportingOverflow(1)
            if overflow {
                forwardOn(.error(RxError.overflow))
                dispose()
                return
            }
            forwardOn(.next((index, element)))
            index = next
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
