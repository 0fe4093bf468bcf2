/// A subject that remembers the last `bufferSize` elements (or all of them) and replays
/// them to each new subscriber before it sees what comes next. Once stopped, a new
/// subscriber receives the remembered elements and then the stop event.
///
/// Replaying happens outside the subject's lock (as RxSwift main does since #2713), so a
/// replayed observer may take other locks; a subscriber still never sees a live element
/// before (or in the middle of) its replay: live events that arrive meanwhile wait until
/// it is done (`ReplayGate`). Live events are delivered outside the lock, as
/// `PublishSubject` delivers them. Memory: the buffer holds at most `bufferSize`
/// elements (without bound for `createUnbounded()`).
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, UnsubscribeType, @unchecked Sendable {
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let lock = Lock(recursive: true)
    /// nil: unbounded.
    private let capacity: Int?
    // Guarded by `lock`, so without dynamic exclusivity checks.
    /// The remembered elements, oldest at `start` once the buffer is full.
    @exclusivity(unchecked) private var buffer: [Element] = []
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var observers = Bag<AnyObserver<Element>>()
    @exclusivity(unchecked) private var stopEvent: Event<Element>?
    @exclusivity(unchecked) private var disposed = false

    private init(capacity: Int?) {
        self.capacity = capacity
        super.init()
    }

    /// A subject that replays the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "bufferSize can't be negative")
        return ReplaySubject(capacity: bufferSize)
    }

    /// A subject that replays every element it was sent.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(capacity: nil)
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    public var isDisposed: Bool { lock.performLocked { disposed } }

    public func on(_ event: Event<Element>) {
        let recipients: Bag<AnyObserver<Element>> = lock.performLocked {
            if disposed || stopEvent != nil { return Bag() }
            switch event {
            case .next(let element):
                remember(element)
            case .error, .completed:
                stopEvent = event
            }
            let recipients = observers
            if event.isStopEvent { observers.removeAll() }
            return recipients
        }
        recipients.forEach { $0.on(event) }
    }

    /// Called with the lock held.
    private func remember(_ element: Element) {
        guard let capacity else {
            buffer.append(element)
            return
        }
        guard capacity > 0 else { return }
        if buffer.count < capacity {
            buffer.append(element)
        } else {
            buffer[start] = element
            start = (start + 1) % capacity
        }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        }
        let replayed = (0..<buffer.count).map { buffer[(start + $0) % buffer.count] }
        if let stopEvent {
            lock.unlock()
            for element in replayed { observer.on(.next(element)) }
            observer.on(stopEvent)
            return Disposables.create()
        }
        let gate = replayed.isEmpty ? nil : ReplayGate(eventHandler(of: observer))
        let key = observers.insert(gate.map { gate in AnyObserver { gate.on($0) } } ?? AnyObserver(observer))
        lock.unlock()
        for element in replayed { observer.on(.next(element)) }
        gate?.finishReplay()
        return SubjectSubscription(owner: self, key: key)
    }

    func unsubscribe(_ key: BagKey) {
        lock.performLocked { _ = observers.removeValue(forKey: key) }
    }

    public func asObserver() -> ReplaySubject<Element> { self }

    /// Drops every observer and the remembered elements; later subscribers receive
    /// `RxError.disposed`.
    public func dispose() {
        lock.performLocked {
            disposed = true
            observers.removeAll()
            buffer.removeAll()
            start = 0
            stopEvent = nil
        }
    }
}
