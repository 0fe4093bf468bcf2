/// A sequence of the elements of one group of `groupBy`, with the key they share.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key of this group's elements.
    public let key: Key

    private let source: Observable<Element>

    /// A group of `source`'s elements under `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { source }
}

extension ObservableType {
    /// The source's elements split into groups by the key `keySelector` gives each: a
    /// group is sent when its first element arrives, and then receives its elements.
    ///
    /// The source's completion or error ends every group, then this sequence. Disposing
    /// the subscription to the groups does not end the groups already subscribed to: the
    /// source stays subscribed until they are disposed too (new groups are then no longer
    /// sent). An error thrown by `keySelector` fails every group and the sequence.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), keySelector: keySelector)
    }
}

private final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key) {
        self.source = source
        self.keySelector = keySelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink(keySelector: keySelector, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

private final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    /// Each group's subject, by key: the upstream's serialized calls only.
    private var groups: [Key: PublishSubject<Element>] = [:]
    /// The source's subscription, held until this sink and every group subscription are disposed.
    private var sourceSubscription: RefCountDisposable!

    init(keySelector: @escaping (Element) throws -> Key, observer: Observer, cancel: Cancelable) {
        self.keySelector = keySelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = SingleAssignmentDisposable()
        sourceSubscription = RefCountDisposable(disposable: subscription)
        subscription.setDisposable(source.subscribe(self))
        return sourceSubscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                end(failing: error)
                return
            }
            group(for: key).on(.next(element))
        case .error(let error):
            end(failing: error)
        case .completed:
            end(failing: nil)
        }
    }

    /// The subject of `key`'s group; a new group is sent downstream first.
    private func group(for key: Key) -> PublishSubject<Element> {
        if let existing = groups[key] { return existing }
        let subject = PublishSubject<Element>()
        groups[key] = subject
        let refCount = sourceSubscription!
        let members = Observable<Element>.create { observer in
            let hold = refCount.retain()
            return Disposables.create(subject.subscribe(observer), hold)
        }
        forwardOn(.next(GroupedObservable(key: key, source: members)))
        return subject
    }

    /// Ends every group, then the sequence: with `error`, or completion when it is `nil`.
    private func end(failing error: Swift.Error?) {
        for subject in groups.values { subject.on(error.map { .error($0) } ?? .completed) }
        forwardOn(error.map { .error($0) } ?? .completed)
        dispose()
    }
}
