/// Like `PublishSubject`, and it holds a current value: each new subscriber first
/// receives the latest element (or the initial value).
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, UnsubscribeType, @unchecked Sendable {
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let lock = Lock(recursive: true)
    // Guarded by `lock`, so without dynamic exclusivity checks.
    @exclusivity(unchecked) private var element: Element
    @exclusivity(unchecked) private var observers = Bag<AnyObserver<Element>>()
    @exclusivity(unchecked) private var stopEvent: Event<Element>?
    @exclusivity(unchecked) private var disposed = false

    /// A subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// The current value; throws the error the subject failed with, or
    /// `RxError.disposed` after `dispose()`.
    public func value() throws -> Element {
        try lock.performLocked {
            if disposed { throw RxError.disposed(object: self) }
            if let error = stopEvent?.error { throw error }
            return element
        }
    }

    public func on(_ event: Event<Element>) {
        let recipients: Bag<AnyObserver<Element>> = lock.performLocked {
            if disposed || stopEvent != nil { return Bag() }
            switch event {
            case .next(let value):
                element = value
            case .error, .completed:
                stopEvent = event
            }
            let recipients = observers
            if event.isStopEvent { observers.removeAll() }
            return recipients
        }
        recipients.forEach { $0.on(event) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.performLocked {
            if disposed {
                observer.on(.error(RxError.disposed(object: self)))
                return Disposables.create()
            }
            if let stopEvent {
                observer.on(stopEvent)
                return Disposables.create()
            }
            let key = observers.insert(AnyObserver(observer))
            observer.on(.next(element))
            return SubjectSubscription(owner: self, key: key)
        }
    }

    func unsubscribe(_ key: BagKey) {
        lock.performLocked { _ = observers.removeValue(forKey: key) }
    }

    public func asObserver() -> BehaviorSubject<Element> { self }

    /// Drops every observer and the value; later subscribers receive `RxError.disposed`.
    public func dispose() {
        lock.performLocked {
            disposed = true
            observers.removeAll()
            stopEvent = nil
        }
    }
}
