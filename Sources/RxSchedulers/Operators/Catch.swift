extension ObservableType {
    /// On error, continues with the sequence `handler` returns for it.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Catch(source: asObservable(), handler: handler)
    }

    /// On error, sends `element` and completes.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        Catch(source: asObservable(), handler: { _ in .just(element) })
    }

    /// The elements of each sequence of `sequence` in turn, moving to the next when one
    /// fails, until one completes. When every one has failed, the last error; an empty
    /// `sequence` completes. `sequence` is read lazily, so it may be endless.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        SourceSequence(advancingOn: .error) { AnyIterator(sequence.makeIterator()) }
    }
}

private final class Catch<Element>: Producer<Element> {
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let source: Observable<Element>
    private let handler: Handler

    init(source: Observable<Element>, handler: @escaping Handler) {
        self.source = source
        self.handler = handler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

private final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let handler: Handler
    private let subscription = SerialDisposable()

    init(handler: @escaping Handler, observer: Observer, cancel: Cancelable) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        first.setDisposable(source.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            do {
                let fallback = try handler(error)
                subscription.disposable = fallback.subscribe(
                    AnyObserver { event in
                        self.forwardOn(event)
                        if event.isStopEvent { self.dispose() }
                    })
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        }
    }
}
