extension ObservableType {
    /// Each element transformed by `transform`; a thrown error ends the sequence with it.
    /// Allocates nothing per element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
    }
}

private final class Map<SourceElement, Element>: Producer<Element> {
    typealias Transform = (SourceElement) throws -> Element

    private let source: Observable<SourceElement>
    private let transform: Transform

    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class MapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Transform = (SourceElement) throws -> Observer.Element

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                forwardOn(.next(try transform(element)))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}
