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
    /// Serializes the events sent downstream (recursive, as in RxSwift). Nothing is
    /// disposed under it: tearing a source down may take the source's own locks, which a
    /// thread sending into this operator may hold (RxSwift #2711's class).
    private let lock = Lock(recursive: true)
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    // Guarded by `lock`.
    private var latest: UInt64 = 0
    private var hasLatest = false
    private var sourceStopped = false
    /// Set with the stop event sent downstream: nothing is sent after it.
    private var stopped = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    /// Sends the stop event `event` unless one was sent; returns whether it did, in which
    /// case the caller disposes once it released the lock. Called with the lock held.
    private func stopWhileLocked(with event: Event<Observer.Element>) -> Bool {
        if stopped { return false }
        stopped = true
        forwardOn(event)
        return true
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Inner.Element>
            do {
                inner = try selector(element).asObservable()
            } catch {
                if lock.performLocked({ stopWhileLocked(with: .error(error)) }) { dispose() }
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
            if lock.performLocked({ stopWhileLocked(with: .error(error)) }) { dispose() }
        case .completed:
            let ended: Bool = lock.performLocked {
                sourceStopped = true
                return !hasLatest && stopWhileLocked(with: .completed)
            }
            sourceSubscription.dispose()
            if ended { dispose() }
        }
    }

    private func innerEvent(_ event: Event<Inner.Element>, id: UInt64) {
        let ended: Bool = lock.performLocked {
            guard id == latest, !stopped else { return false }
            switch event {
            case .next:
                forwardOn(event)
                return false
            case .error:
                return stopWhileLocked(with: event)
            case .completed:
                hasLatest = false
                return sourceStopped && stopWhileLocked(with: .completed)
            }
        }
        if ended { dispose() }
    }
}
