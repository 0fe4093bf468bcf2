extension ObservableType {
    /// Each element mapped to an inner sequence; only the newest inner sequence is
    /// followed (the previous one is disposed). Completes when the source and the
    /// newest inner sequence have completed.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapLatest(source: asObservable(), selector: selector)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of the newest inner sequence: a new one disposes the one before.
    public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}

private final class FlatMapLatest<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    typealias Selector = (SourceElement) throws -> Inner

    let source: Observable<SourceElement>
    let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Inner.Element {
        let sink = SwitchSink(selector: selector, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

private final class SwitchSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Inner.Element {
    typealias Selector = (SourceElement) throws -> Inner

    private let selector: Selector
    private let lock = Lock(recursive: true)
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    private var latest: UInt64 = 0
    private var hasLatest = false
    private var sourceStopped = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Inner.Element>
            do {
                inner = try selector(element).asObservable()
            } catch {
                lock.performLocked {
                    forwardOn(.error(error))
                    dispose()
                }
                return
            }
            let id: UInt64 = lock.performLocked {
                latest &+= 1
                hasLatest = true
                return latest
            }
            let subscription = SingleAssignmentDisposable()
            innerSubscription.disposable = subscription
            let observer = AnyObserver<Inner.Element> { event in
                self.innerEvent(event, id: id)
            }
            subscription.setDisposable(inner.subscribe(observer))
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                sourceStopped = true
                sourceSubscription.dispose()
                if !hasLatest {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    private func innerEvent(_ event: Event<Inner.Element>, id: UInt64) {
        lock.performLocked {
            guard id == latest else { return }
            switch event {
            case .next:
                forwardOn(event)
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                hasLatest = false
                if sourceStopped {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }
}
