/// Sends only the last element it received, and only when it completes: each observer
/// receives that element and completion (or just completion if there was none, or the
/// error). An observer that subscribes after the end receives the same. As RxSwift's
/// `AsyncSubject`, except that it sends, and replays the end, outside its lock (so an
/// observer may subscribe to another subject from its handler, RxSwift #2713).
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, UnsubscribeType, @unchecked Sendable {
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = SpinningLock()
    // Guarded by `lock`.
    private var observers = Bag<AnyObserver<Element>>()
    private var lastElement: Element?
    /// What a late observer receives: the last element (then completion), or the stop event.
    private var end: Event<Element>?

    public override init() {
        super.init()
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    /// Holds a `next` element as the last one; on completion sends it (if any) and
    /// completion to every observer, on error the error. Events after the end are ignored.
    public func on(_ event: Event<Element>) {
        let (recipients, end): ([AnyObserver<Element>], Event<Element>?) = lock.performLocked {
            guard self.end == nil else { return ([], nil) }
            switch event {
            case .next(let element):
                lastElement = element
                return ([], nil)
            case .error:
                self.end = event
            case .completed:
                self.end = lastElement.map { .next($0) } ?? .completed
            }
            let recipients = observers.values
            observers.removeAll()
            return (recipients, self.end)
        }
        guard let end else { return }
        for recipient in recipients {
            recipient.on(end)
            if case .next = end { recipient.on(.completed) }
        }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        guard let ended = end else {
            let key = observers.insert(AnyObserver(observer))
            lock.unlock()
            return SubjectSubscription(owner: self, key: key)
        }
        lock.unlock()
        observer.on(ended)
        if case .next = ended { observer.on(.completed) }
        return Disposables.create()
    }

    func unsubscribe(_ key: BagKey) {
        lock.performLocked { _ = observers.removeValue(forKey: key) }
    }

    public func asObserver() -> AsyncSubject<Element> { self }
}
