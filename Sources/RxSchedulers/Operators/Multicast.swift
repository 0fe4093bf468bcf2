extension ObservableType {
    /// A connectable sequence that sends the source's events, once connected, through
    /// `subject` to its observers. The same subject serves every connection, so after the
    /// source ended a new observer gets what the subject gives a late observer.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        ConnectableSubject(source: asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence that sends the source's events, once connected, through a
    /// subject `makeSubject` makes: a new one for the first subscriber or connection after
    /// the last connection ended (the source's stop event or the connection's disposal).
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        ConnectableSubject(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscription: a subject from `subjectSelector`, a connectable sequence of
    /// the source through it, the sequence `selector` makes of that, subscribed, and then
    /// the connection. Both end with the subscription. An error thrown by either closure
    /// is the sequence's error.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return ClosureProducer<Result> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            do {
                let subject = try subjectSelector()
                let connectable = ConnectableSubject(source: source, makeSubject: { subject })
                let selected = try selector(connectable.asObservable())
                let subscription = selected.subscribe(ClosureObserver<Result> { gate.relay($0, to: downstream) })
                let connection = connectable.connect()
                return (gate, Disposables.create(subscription, connection))
            } catch {
                gate.finish(with: .error(error), to: downstream)
                return (gate, Disposables.create())
            }
        }
    }
}

/// `multicast`'s connectable sequence: observers subscribe to the current subject, and a
/// connection subscribes the subject to the source.
private final class ConnectableSubject<Subject: SubjectType>: ConnectableObservable<Subject.Element> {
    typealias Element = Subject.Element

    private let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    /// Recursive: a source that ends during `connect()` ends the connection on this thread.
    let lock = Lock(recursive: true)
    // Guarded by `lock`.
    private var subject: Subject?
    var connection: SubjectConnection<Subject>?

    init(source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The current subject, made now if the last connection ended. Called with `lock` held.
    private var currentSubject: Subject {
        if let subject { return subject }
        let made = makeSubject()
        subject = made
        return made
    }

    /// Subscribes the current subject to the source, unless a connection is live (then
    /// that one is returned). The source is subscribed under the lock, so a disposal of
    /// the connection on another thread waits until it is subscribed.
    override func connect() -> Disposable {
        lock.performLocked {
            if let connection { return connection }
            let subscription = SingleAssignmentDisposable()
            let connection = SubjectConnection(parent: self, observer: currentSubject.asObserver(), subscription: subscription)
            self.connection = connection
            subscription.setDisposable(source.subscribe(connection))
            return connection
        }
    }

    /// Forgets `connection` and its subject, if they are still the current ones.
    func detach(_ connection: SubjectConnection<Subject>) {
        lock.performLocked {
            guard self.connection === connection else { return }
            self.connection = nil
            subject = nil
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let subject = lock.performLocked { currentSubject }
        return subject.subscribe(observer)
    }
}

/// One connection of a ``ConnectableSubject``: it forwards the source's events to the
/// subject; its stop event or its disposal ends the connection (and a later connection
/// gets a new subject).
private final class SubjectConnection<Subject: SubjectType>: ObserverType, Disposable {
    typealias Element = Subject.Observer.Element

    private let lock = Lock()
    // Guarded by `lock`.
    private var parent: ConnectableSubject<Subject>?
    private var subscription: Disposable?
    private let observer: Subject.Observer

    init(parent: ConnectableSubject<Subject>, observer: Subject.Observer, subscription: Disposable) {
        self.parent = parent
        self.observer = observer
        self.subscription = subscription
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func on(_ event: Event<Element>) {
        if lock.performLocked({ parent == nil }) { return }
        if event.isStopEvent { dispose() }
        observer.on(event)
    }

    func dispose() {
        let (parent, subscription) = lock.performLocked { () -> (ConnectableSubject<Subject>?, Disposable?) in
            defer {
                self.parent = nil
                self.subscription = nil
            }
            return (self.parent, self.subscription)
        }
        parent?.detach(self)
        subscription?.dispose()
    }
}
