extension ObservableType where Element: Equatable {
    /// Drops elements equal to the one before them.
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: ==)
    }
}

extension ObservableType {
    /// Drops elements whose key equals the key of the element before them.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: ==)
    }

    /// Drops elements whose value at `keyPath` equals that of the element before them.
    public func distinctUntilChanged<Key: Equatable>(at keyPath: KeyPath<Element, Key>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
    }

    /// Drops elements that `comparer` finds equal to the element before them.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose key `comparer` finds equal to the previous element's key.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool)
        -> Observable<Element>
    {
        DistinctUntilChanged(source: asObservable(), selector: keySelector, comparer: comparer)
    }
}

private final class DistinctUntilChanged<Element, Key>: Producer<Element> {
    typealias KeySelector = (Element) throws -> Key
    typealias EqualityComparer = (Key, Key) throws -> Bool

    private let source: Observable<Element>
    let selector: KeySelector
    let comparer: EqualityComparer

    init(source: Observable<Element>, selector: @escaping KeySelector, comparer: @escaping EqualityComparer) {
        self.source = source
        self.selector = selector
        self.comparer = comparer
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(parent: self, observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: DistinctUntilChanged<Element, Key>
    private var currentKey: Key?

    init(parent: DistinctUntilChanged<Element, Key>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                let key = try parent.selector(element)
                if let currentKey, try parent.comparer(currentKey, key) { return }
                currentKey = key
                forwardOn(event)
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
