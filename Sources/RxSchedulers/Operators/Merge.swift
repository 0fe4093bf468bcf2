extension ObservableType {
    /// Each element mapped to an inner sequence, all inner sequences merged. Completes
    /// when the source and every inner sequence have completed; any error ends it.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMap(source: asObservable(), selector: selector)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of every inner sequence, merged as they arrive.
    public func merge() -> Observable<Element.Element> {
        FlatMap(source: asObservable(), selector: { $0 })
    }
}

extension ObservableType {
    /// The elements of all `sources`, merged as they arrive.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        FlatMap(source: Observable.from(Array(sources)), selector: { $0 })
    }

    /// The elements of all `sources`, merged as they arrive.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        FlatMap(source: Observable.from(sources), selector: { $0 })
    }

    /// The elements of all `sources`, merged as they arrive.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        FlatMap(source: Observable.from(sources), selector: { $0 })
    }
}

private final class FlatMap<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    typealias Selector = (SourceElement) throws -> Inner

    let source: Observable<SourceElement>
    let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Inner.Element {
        let sink = MergeSink(selector: selector, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

/// Subscribes to every inner sequence and forwards their events one at a time under a
/// recursive lock, so concurrent inner sources reach the observer serialized.
private final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Inner.Element {
    typealias Selector = (SourceElement) throws -> Inner

    private let selector: Selector
    private let lock = Lock(recursive: true)
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()
    private var activeCount = 0
    private var sourceStopped = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Inner
            do {
                inner = try selector(element)
            } catch {
                lock.performLocked {
                    forwardOn(.error(error))
                    dispose()
                }
                return
            }
            subscribeInner(inner.asObservable())
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                sourceStopped = true
                sourceSubscription.dispose()
                if activeCount == 0 {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    private func subscribeInner(_ inner: Observable<Inner.Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        lock.performLocked { activeCount += 1 }
        let observer = AnyObserver<Inner.Element> { event in
            self.lock.performLocked {
                switch event {
                case .next:
                    self.forwardOn(event)
                case .error:
                    self.forwardOn(event)
                    self.dispose()
                case .completed:
                    self.group.remove(for: key)
                    self.activeCount -= 1
                    if self.sourceStopped && self.activeCount == 0 {
                        self.forwardOn(.completed)
                        self.dispose()
                    }
                }
            }
        }
        innerSubscription.setDisposable(inner.subscribe(observer))
    }
}
