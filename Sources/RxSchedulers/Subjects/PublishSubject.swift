/// Sends each event to the observers subscribed at that moment. After a stop event,
/// new subscribers receive just that stop event; after `dispose()`, an error.
///
/// Delivery reads the observers under a lock and calls them outside it. With one
/// observer, a `next` event calls it without a retain: the lock's word counts the
/// deliveries in flight (`DeliveryLock`), and an observer removed while one runs (a
/// concurrent unsubscribe, or a stop event the observer itself sends) is parked until the
/// last of them returns. With several, the array of observers is shared with the
/// delivery (copy-on-write: nothing is allocated). Callers must not send events
/// concurrently (the Rx grammar); the subject does not reorder them.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, UnsubscribeType, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    /// One subscriber's observer, in a box: a delivery calls the sole observer through an
    /// unretained reference to it, which the subject's count of deliveries keeps valid.
    @usableFromInline
    final class Subscriber {
        /// Kept as `AnyObserver`, not as a bare closure: a closure stored as a generic
        /// container's element is kept at the most general abstraction (its result
        /// returned indirectly too), so every call went through two reabstraction thunks.
        @usableFromInline let observer: AnyObserver<Element>

        init(_ observer: AnyObserver<Element>) { self.observer = observer }
    }

    @usableFromInline let lock = DeliveryLock()
    // Guarded by `lock`, so without dynamic exclusivity checks (three per event cost about
    // a quarter of a hand-off through observe(on:) under callgrind).
    @usableFromInline @exclusivity(unchecked) var observers = Bag<Subscriber>()
    /// The only subscriber, when there is exactly one (and so the subject is neither
    /// stopped nor disposed, which remove them all); unretained: `observers` holds it, and
    /// once removed it is parked while deliveries run.
    @usableFromInline @exclusivity(unchecked) var sole: Unmanaged<Subscriber>?
    @usableFromInline @exclusivity(unchecked) var stopEvent: Event<Element>?
    @usableFromInline @exclusivity(unchecked) var disposed = false
    /// Subscribers removed while deliveries were in flight, released by the last of them.
    @exclusivity(unchecked) var parked: [Subscriber] = []

    public override init() {
        super.init()
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// Sends `event` to the current observers. Inlinable, so a caller that knows the
    /// element type runs a specialized copy (no generic-metadata lookups per event).
    @inlinable
    public func on(_ event: Event<Element>) {
        lock.lock()
        if let sole, !event.isStopEvent {
            lock.unlockEnteringDelivery()
            stressPoint(.subjectDelivering)
            sole._withUnsafeGuaranteedRef { $0.observer.on(event) }
            if lock.leaveDelivery() { releaseParked() }
            return
        }
        sendLocked(event)
    }

    /// `on` with the lock held, for every case but a `next` to the sole observer: stop
    /// events, several observers, none. Gives the lock back.
    @usableFromInline
    func sendLocked(_ event: Event<Element>) {
        if disposed || stopEvent != nil {
            lock.unlock()
            return
        }
        let recipients = observers.values
        var removed: [Subscriber] = []
        if event.isStopEvent {
            stopEvent = event
            removed = removeAllLocked()
        }
        lock.unlock()
        for recipient in recipients { recipient.observer.on(event) }
        _ = consume removed
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let subscriber = Subscriber(AnyObserver(observer))
        lock.lock()
        var replay: Event<Element>?
        if let stopEvent {
            replay = stopEvent
        } else if disposed {
            replay = .error(RxError.disposed(object: self))
        }
        if let replay {
            lock.unlock()
            observer.on(replay)
            return Disposables.create()
        }
        let key = observers.insert(subscriber)
        updateSoleLocked()
        lock.unlock()
        return SubjectSubscription(owner: self, key: key)
    }

    func unsubscribe(_ key: BagKey) {
        lock.lock()
        var released: Subscriber?
        if let removed = observers.removeValue(forKey: key) {
            updateSoleLocked()
            if lock.parkIfDelivering() && !SeededBug.isActive(.subjectReleasesDeliveringObserver) {
                parked.append(removed)
            } else {
                released = removed
            }
        }
        lock.unlock()
        _ = consume released  // released here, outside the lock
    }

    public func asObserver() -> PublishSubject<Element> { self }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        lock.lock()
        disposed = true
        stopEvent = nil
        let removed = removeAllLocked()
        lock.unlock()
        _ = consume removed
    }

    /// With the lock held: removes every subscriber, and returns those to release once
    /// the lock is given back (none, if deliveries are in flight: then they are parked).
    private func removeAllLocked() -> [Subscriber] {
        var removed = observers.values
        observers.removeAll()
        sole = nil
        if !removed.isEmpty && lock.parkIfDelivering() && !SeededBug.isActive(.subjectReleasesDeliveringObserver) {
            parked.append(contentsOf: removed)
            removed = []
        }
        return removed
    }

    /// With the lock held: `sole` follows `observers`.
    private func updateSoleLocked() {
        sole = observers.count == 1 ? Unmanaged.passUnretained(observers.values[0]) : nil
    }

    /// Called by the delivery that ended last when something was parked meanwhile.
    @usableFromInline
    func releaseParked() {
        lock.lock()
        var released: [Subscriber] = []
        if lock.takeParked() { swap(&released, &parked) }
        lock.unlock()
        _ = consume released
    }
}
