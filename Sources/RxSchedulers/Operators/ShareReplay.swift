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
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "replay can't be negative")
        return ShareReplay(source: asObservable(), replay: replay, scope: scope)
    }
}

/// The shared connection: replay buffer, subscribers and the source subscription.
private final class ShareReplay<Element>: Observable<Element>, ObserverType {
    private let source: Observable<Element>
    private let replay: Int
    private let scope: SubjectLifetimeScope
    private let lock = Lock(recursive: true)

    private var observers = Bag<AnyObserver<Element>>()
    private var buffer = RingQueue<Element>(capacity: 1)
    private var stopEvent: Event<Element>?
    private var connection: SingleAssignmentDisposable?
    /// Distinguishes events of the current connection from a disposed one's.
    private var connectionID: UInt64 = 0

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        var replayed: [Element] = []
        replayed.reserveCapacity(buffer.count)
        var copy = buffer
        while let element = copy.dequeue() { replayed.append(element) }
        for element in replayed { observer.on(.next(element)) }
        if let stopEvent, scope == .forever {
            observer.on(stopEvent)
            lock.unlock()
            return Disposables.create()
        }
        let key = observers.insert(AnyObserver(observer))
        let connectNow = connection == nil
        var newConnection: SingleAssignmentDisposable?
        if connectNow {
            newConnection = SingleAssignmentDisposable()
            connection = newConnection
            connectionID &+= 1
        }
        let id = connectionID
        lock.unlock()

        if let newConnection {
            let forwarder = AnyObserver<Element> { event in self.on(event, connection: id) }
            newConnection.setDisposable(source.subscribe(forwarder))
        }
        return Disposables.create { self.unsubscribe(key, connection: id) }
    }

    func on(_ event: Event<Element>) {
        on(event, connection: connectionID)
    }

    private func on(_ event: Event<Element>, connection id: UInt64) {
        lock.performLocked {
            guard id == connectionID, stopEvent == nil else { return }
            switch event {
            case .next(let element):
                if replay > 0 {
                    buffer.enqueue(element)
                    if buffer.count > replay { _ = buffer.dequeue() }
                }
            case .error, .completed:
                stopEvent = event
            }
            let current = observers
            if event.isStopEvent {
                observers.removeAll()
                if scope == .whileConnected { resetConnection() }
            }
            current.forEach { $0.on(event) }
        }
    }

    private func unsubscribe(_ key: BagKey, connection id: UInt64) {
        let ended: SingleAssignmentDisposable? = lock.performLocked {
            guard id == connectionID, observers.removeValue(forKey: key) != nil, observers.isEmpty else { return nil }
            let ended = connection
            if scope == .whileConnected {
                resetConnection()
            } else {
                connection = nil
            }
            return ended
        }
        ended?.dispose()
    }

    /// Forgets the connection and what it replayed (`whileConnected`).
    private func resetConnection() {
        connection = nil
        buffer.removeAll()
        stopEvent = nil
        connectionID &+= 1
    }
}
