import Synchronization

/// Sends each event to the observers subscribed at that moment. After a stop event,
/// new subscribers receive just that stop event; after `dispose()`, an error.
///
/// With one observer, a `next` event is delivered without the lock and without a retain:
/// the delivery counts itself (`DeliveryCount`), reads the observer from an atomic
/// reference and calls it; an observer removed while deliveries run (a concurrent
/// unsubscribe, or a stop event or `dispose()` the observer itself sends) is parked until
/// the last of them returns. With several, delivery reads them under a lock and calls them
/// outside it, sharing the array's storage (copy-on-write: nothing is allocated). Callers
/// must not send events concurrently (the Rx grammar); the subject does not reorder them.
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

    @usableFromInline let lock = SpinningLock()
    @usableFromInline let deliveries = DeliveryCount()
    /// The only subscriber, when there is exactly one (and so the subject is neither
    /// stopped nor disposed, which remove them all), as `Unmanaged` bits (0: none). Not
    /// retained: `observers` holds it, and once removed it is parked while deliveries run.
    /// Written under `lock`, sequentially consistent (see `DeliveryCount`), read by
    /// deliveries without it.
    @usableFromInline let sole = Atomic<UInt>(0)
    // Guarded by `lock`, so without dynamic exclusivity checks (three per event cost about
    // a quarter of a hand-off through observe(on:) under callgrind).
    @usableFromInline @exclusivity(unchecked) var observers = Bag<Subscriber>()
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
    ///
    /// A `next` to the sole observer: the count in, the reference read (checked first
    /// without the count, so that a subject with several observers or none goes straight
    /// to the lock), the call, the count out.
    @inlinable
    public func on(_ event: Event<Element>) {
        if !event.isStopEvent && sole.load(ordering: .relaxed) != 0 {
            deliveries.enter()
            let bits = sole.load(ordering: .sequentiallyConsistent)
            if bits != 0 {
                stressPoint(.subjectDelivering)
                Unmanaged<Subscriber>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef {
                    $0.observer.on(event)
                }
                if deliveries.leave() { releaseParked() }
                return
            }
            if deliveries.leave() { releaseParked() }
        }
        lock.lock()
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
            if deliveries.parkIfDelivering() {
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
        sole.store(0, ordering: .sequentiallyConsistent)
        if !removed.isEmpty && deliveries.parkIfDelivering() {
            parked.append(contentsOf: removed)
            removed = []
        }
        return removed
    }

    /// With the lock held: `sole` follows `observers`.
    private func updateSoleLocked() {
        let bits = observers.count == 1 ? UInt(bitPattern: Unmanaged.passUnretained(observers.values[0]).toOpaque()) : 0
        sole.store(bits, ordering: .sequentiallyConsistent)
    }

    /// Called by the delivery that ended last when something was parked meanwhile.
    @usableFromInline
    func releaseParked() {
        lock.lock()
        var released: [Subscriber] = []
        if deliveries.takeParked() { swap(&released, &parked) }
        lock.unlock()
        _ = consume released
    }
}
