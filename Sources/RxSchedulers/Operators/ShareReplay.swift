/// How long `share(replay:scope:)` keeps the shared connection's state.
public enum SubjectLifetimeScope {
    /// Forget replayed elements and termination when the last subscriber leaves; the
    /// next subscriber starts a fresh subscription to the source.
    case whileConnected
    /// Keep replayed elements and termination for ever, across reconnections.
    case forever
}

extension ObservableType {
    /// One subscription to the source shared by all subscribers, started by the first
    /// and ended when the last leaves; late subscribers first receive up to `replay`
    /// latest elements.
    ///
    /// Events are delivered outside the share's lock, and a late subscriber's replay
    /// too (as RxSwift main does): a subscriber may subscribe, or dispose, from inside
    /// its handlers, and a handler may wait for another thread that does. A late
    /// subscriber still sees its replay before any live event: events that arrive while
    /// it is being replayed to wait, in order, until the replay is done (`ReplayGate`).
    ///
    /// Cost per event: one lock (a spin lock: the critical section is a few loads and
    /// stores), the replayed element stored, and each subscriber's handler called (one
    /// atomic load more for a subscriber that was replayed to); no allocation. The
    /// per-event code is specialized in the caller.
    @inlinable
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "replay can't be negative")
        return ShareReplay(source: asObservable(), replay: replay, scope: scope) { connection in
            { event in connection.on(event) }
        }
    }
}

/// The shared source: what is replayed, and the current connection to the source.
@usableFromInline
final class ShareReplay<Element>: Observable<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let replay: Int
    @usableFromInline let scope: SubjectLifetimeScope
    /// Guards the fields below and every connection's.
    @usableFromInline let lock = SpinningLock()
    /// Makes a connection's observer of the source; built by `share` in the caller's
    /// module, so the per-event code it calls is specialized there.
    @usableFromInline let forwarder: (ShareConnection<Element>) -> (Event<Element>) -> Void

    // Guarded by `lock`, so without dynamic exclusivity checks.
    /// The replayed element when `replay` is 1 (the commonest: `Driver`).
    @usableFromInline @exclusivity(unchecked) var latest: Element?
    /// The replayed elements when `replay` is above 1, oldest first.
    @exclusivity(unchecked) var buffer = RingQueue<Element>(capacity: 1)
    /// The stop event, kept with `.forever` only.
    @exclusivity(unchecked) var stopEvent: Event<Element>?
    @usableFromInline @exclusivity(unchecked) var connection: ShareConnection<Element>?

    @usableFromInline
    init(
        source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope,
        forwarder: @escaping (ShareConnection<Element>) -> (Event<Element>) -> Void
    ) {
        self.source = source
        self.replay = replay
        self.scope = scope
        self.forwarder = forwarder
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        let replayed = replayedElements()
        if let stopEvent {
            lock.unlock()
            for element in replayed { observer.on(.next(element)) }
            observer.on(stopEvent)
            return Disposables.create()
        }
        let existing = connection
        let connection = existing ?? ShareConnection(parent: self)
        self.connection = connection
        let gate = replayed.isEmpty ? nil : ReplayGate(eventHandler(of: observer))
        let key = connection.observers.insert(gate.map { gate in AnyObserver { gate.on($0) } } ?? AnyObserver(observer))
        lock.unlock()

        for element in replayed { observer.on(.next(element)) }
        gate?.finishReplay()
        if existing == nil { connection.connect() }
        return SubjectSubscription(owner: connection, key: key)
    }

    /// Stores `element` for replay when `replay` is above 1. Called with the lock held.
    @usableFromInline
    func rememberInBuffer(_ element: Element) {
        buffer.enqueue(element)
        if buffer.count > replay { _ = buffer.dequeue() }
    }

    /// What a new subscriber is replayed. Called with the lock held.
    private func replayedElements() -> [Element] {
        if replay == 1 { return latest.map { [$0] } ?? [] }
        var replayed: [Element] = []
        replayed.reserveCapacity(buffer.count)
        var copy = buffer
        while let element = copy.dequeue() { replayed.append(element) }
        return replayed
    }

    /// `connection` ended (the source stopped with `stopEvent`, or the last subscriber
    /// left): the next subscriber connects again; `.whileConnected` forgets what it
    /// replayed, `.forever` keeps it and the stop event. Called with the lock held.
    @usableFromInline
    func ended(_ ended: ShareConnection<Element>, stopEvent: Event<Element>?) {
        if connection === ended { connection = nil }
        switch scope {
        case .whileConnected:
            latest = nil
            buffer.removeAll()
        case .forever:
            if let stopEvent { self.stopEvent = stopEvent }
        }
    }
}

/// One subscription to the source and the subscribers sharing it.
@usableFromInline
final class ShareConnection<Element>: UnsubscribeType {
    @usableFromInline let parent: ShareReplay<Element>
    let subscription = SingleAssignmentDisposable()
    // Guarded by the parent's lock. `AnyObserver`, not bare closures, as `PublishSubject`
    // keeps them (no reabstraction thunks per call).
    @usableFromInline @exclusivity(unchecked) var observers = Bag<AnyObserver<Element>>()
    /// Set once the source stopped or the last subscriber left: later events are dropped.
    @usableFromInline @exclusivity(unchecked) var isEnded = false

    init(parent: ShareReplay<Element>) {
        self.parent = parent
    }

    /// Subscribes to the source; called outside the lock by the first subscriber.
    func connect() {
        subscription.setDisposable(parent.source.subscribe(AnyObserver(eventHandler: parent.forwarder(self))))
    }

    /// An event from the source: stored for replay, then delivered outside the lock to
    /// the subscribers there were when it arrived.
    @inlinable
    func on(_ event: Event<Element>) {
        let lock = parent.lock
        lock.lock()
        if isEnded {
            lock.unlock()
            return
        }
        switch event {
        case .next(let element):
            if parent.replay == 1 {
                parent.latest = element
            } else if parent.replay > 1 {
                parent.rememberInBuffer(element)
            }
            if observers.count == 1 {
                let only = observers.values[0]
                lock.unlock()
                only.on(event)
                return
            }
            let recipients = observers.values
            lock.unlock()
            for recipient in recipients { recipient.on(event) }
        case .error, .completed:
            let recipients = observers.values
            isEnded = true
            observers.removeAll()
            parent.ended(self, stopEvent: event)
            lock.unlock()
            for recipient in recipients { recipient.on(event) }
        }
    }

    func unsubscribe(_ key: BagKey) {
        let lock = parent.lock
        lock.lock()
        guard observers.removeValue(forKey: key) != nil, observers.isEmpty else {
            lock.unlock()
            return
        }
        isEnded = true
        parent.ended(self, stopEvent: nil)
        lock.unlock()
        subscription.dispose()
    }
}
