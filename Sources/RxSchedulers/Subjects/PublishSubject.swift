/// Sends each event to the observers subscribed at that moment. After a stop event,
/// new subscribers receive just that stop event; after `dispose()`, an error.
///
/// Delivery takes a snapshot of the observers under a lock (the sole observer's handler,
/// or the array, sharing its storage: nothing is allocated) and calls them outside the
/// lock. Callers must not send events concurrently (the Rx grammar); the subject does not
/// reorder them.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, UnsubscribeType, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    @usableFromInline let lock = SpinningLock()
    // Guarded by `lock`, so without dynamic exclusivity checks (three per event cost about
    // a quarter of a hand-off through observe(on:) under callgrind). The observers are kept
    // as `AnyObserver`, not as bare closures: a closure stored as a generic container's
    // element is kept at the most general abstraction (its result returned indirectly too),
    // so every call went through two reabstraction thunks, 19 instructions per event.
    @usableFromInline @exclusivity(unchecked) var observers = Bag<AnyObserver<Element>>()
    @usableFromInline @exclusivity(unchecked) var stopEvent: Event<Element>?
    @usableFromInline @exclusivity(unchecked) var disposed = false

    public override init() {
        super.init()
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// Sends `event` to the current observers. Inlinable, so a caller that knows the
    /// element type runs a specialized copy (no generic-metadata lookups per event).
    ///
    /// With one observer, a `next` event takes that observer's handler out of the lock
    /// without copying the array: one retain fewer per event, and none on the array
    /// buffer that concurrent senders would all contend for.
    @inlinable
    public func on(_ event: Event<Element>) {
        lock.lock()
        if disposed || stopEvent != nil {
            lock.unlock()
            return
        }
        if observers.count == 1 && !event.isStopEvent {
            let only = observers.values[0]
            lock.unlock()
            only.on(event)
            return
        }
        let recipients = observers.values
        if event.isStopEvent {
            stopEvent = event
            observers.removeAll()
        }
        lock.unlock()
        for recipient in recipients { recipient.on(event) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let (key, replay): (BagKey?, Event<Element>?) = lock.performLocked {
            if let stopEvent { return (nil, stopEvent) }
            if disposed { return (nil, .error(RxError.disposed(object: self))) }
            return (observers.insert(AnyObserver(observer)), nil)
        }
        guard let key else {
            if let replay { observer.on(replay) }
            return Disposables.create()
        }
        return SubjectSubscription(owner: self, key: key)
    }

    func unsubscribe(_ key: BagKey) {
        lock.performLocked { _ = observers.removeValue(forKey: key) }
    }

    public func asObserver() -> PublishSubject<Element> { self }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        lock.performLocked {
            disposed = true
            observers.removeAll()
            stopEvent = nil
        }
    }
}
