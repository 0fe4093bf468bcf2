extension ObservableType {
    /// A sequence made afresh by `observableFactory` for each subscriber; a thrown
    /// error is sent as the sequence's error.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Deferred(factory: observableFactory)
    }
}

private final class Deferred<Element>: Producer<Element> {
    private let factory: () throws -> Observable<Element>

    init(factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        do {
            return (sink, try factory().subscribe(sink))
        } catch {
            sink.forwardOn(.error(error))
            sink.dispose()
            return (sink, Disposables.create())
        }
    }
}
