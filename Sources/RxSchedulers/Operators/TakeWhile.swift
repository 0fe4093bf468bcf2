/// Whether `take(while:)` also emits the element that ends the sequence.
public enum TakeBehavior {
    /// Emit the first element that fails the predicate, then complete.
    case inclusive
    /// Complete without emitting the element that fails the predicate.
    case exclusive
}

extension ObservableType {
    /// Elements while `predicate` holds; completes at the first that fails it.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeWhile(source: asObservable(), behavior: behavior, predicate: predicate)
    }
}

private final class TakeWhile<Element>: Producer<Element> {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    private let behavior: TakeBehavior
    private let predicate: Predicate

    init(source: Observable<Element>, behavior: TakeBehavior, predicate: @escaping Predicate) {
        self.source = source
        self.behavior = behavior
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeWhileSink(behavior: behavior, predicate: predicate, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class TakeWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let behavior: TakeBehavior
    private let predicate: Predicate
    private var running = true

    init(behavior: TakeBehavior, predicate: @escaping Predicate, observer: Observer, cancel: Cancelable) {
        self.behavior = behavior
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard running else { return }
            do {
                running = try predicate(element)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            if running {
                forwardOn(event)
            } else {
                if behavior == .inclusive { forwardOn(event) }
                forwardOn(.completed)
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
