extension ConnectableObservableType {
    /// The connectable sequence, connected while anyone is subscribed: the first
    /// subscriber connects it, the last one to leave disposes the connection. A stop event
    /// ends the connection too, and the next subscriber connects again.
    public func refCount() -> Observable<Element> {
        RefCount(source: self)
    }
}

private final class RefCount<Source: ConnectableObservableType>: Producer<Source.Element> {
    typealias Element = Source.Element

    let source: Source
    /// Recursive: the first subscriber connects under it, and a source that ends during
    /// `connect()` comes back to it on this thread.
    let lock = Lock(recursive: true)
    // Guarded by `lock`.
    var subscribers = 0
    /// The connection the subscribers share, and its number: a subscriber of an earlier
    /// connection that leaves must not touch a later one.
    var connection: Disposable?
    var connectionID: UInt = 0

    init(source: Source) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }

    /// Ends connection `id` if it is still the current one (its stop event reached a subscriber).
    func connectionEnded(_ id: UInt) {
        let ended: Disposable? = lock.performLocked {
            guard connectionID == id else { return nil }
            defer {
                subscribers = 0
                connectionID &+= 1
                connection = nil
            }
            return connection
        }
        ended?.dispose()
    }

    /// A subscriber of connection `id` left; the last one disposes the connection.
    func subscriberLeft(_ id: UInt) {
        let last: Disposable? = lock.performLocked {
            guard connectionID == id, subscribers > 0 else { return nil }
            subscribers -= 1
            guard subscribers == 0 else { return nil }
            defer { connection = nil }
            return connection
        }
        last?.dispose()
    }
}

private final class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Source.Element {
    typealias Element = Source.Element

    private let parent: RefCount<Source>
    /// The connection this subscriber joined; `nil` until it joined (under `parent.lock`).
    private var connectionID: UInt?

    init(parent: RefCount<Source>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let refCount = parent
        let subscription = refCount.source.subscribe(self)
        let joined: UInt? = refCount.lock.performLocked {
            connectionID = refCount.connectionID
            if isDisposed { return nil }
            refCount.subscribers += 1
            if refCount.subscribers == 1 { refCount.connection = refCount.source.connect() }
            return refCount.connectionID
        }
        guard let id = joined else { return Disposables.create() }
        return Disposables.create {
            subscription.dispose()
            refCount.subscriberLeft(id)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error, .completed:
            // A stop event during `run`'s subscribe comes before this subscriber joined
            // any connection: it ends none.
            if let id = parent.lock.performLocked({ connectionID }) { parent.connectionEnded(id) }
            forwardOn(event)
            dispose()
        }
    }
}
