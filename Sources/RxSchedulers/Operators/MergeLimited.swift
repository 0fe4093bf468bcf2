extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of the inner sequences, merged as they arrive, with at most
    /// `maxConcurrent` inner sequences subscribed at a time; the others wait, in the order
    /// they arrived, for one to complete. `merge(maxConcurrent: 1)` is `concat()`.
    /// Completes when the source and every inner sequence have completed; any error ends
    /// it. Inner sequences that complete synchronously are started in a loop, not by
    /// recursion (RxSwift subscribes the next from inside the completion).
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "merge(maxConcurrent:) needs at least 1, got \(maxConcurrent)")
        return MergeLimited(source: asObservable(), selector: { $0 }, maxConcurrent: maxConcurrent, overflow: .wait)
    }
}

extension ObservableType {
    /// Each element mapped to an inner sequence, but only while no inner sequence is
    /// running: an element that arrives meanwhile is dropped (its selector is not called).
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        MergeLimited(source: asObservable(), selector: selector, maxConcurrent: 1, overflow: .drop)
    }
}

/// What `MergeLimited` does with an inner sequence that arrives when every slot is taken.
private enum Overflow {
    /// Queue it, to start when a slot frees (`merge(maxConcurrent:)`, `concatMap`).
    case wait
    /// Drop it (`flatMapFirst`).
    case drop
}

private final class MergeLimited<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    typealias Selector = (SourceElement) throws -> Inner

    private let source: Observable<SourceElement>
    private let selector: Selector
    private let maxConcurrent: Int
    private let overflow: Overflow

    init(source: Observable<SourceElement>, selector: @escaping Selector, maxConcurrent: Int, overflow: Overflow) {
        self.source = source
        self.selector = selector
        self.maxConcurrent = maxConcurrent
        self.overflow = overflow
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Inner.Element {
        let sink = MergeLimitedSink<SourceElement, Inner, Observer>(
            selector: selector, maxConcurrent: maxConcurrent, overflow: overflow, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

/// The waiting sequences and the count of running ones under a lock that is never held
/// while an observer runs or a sequence is subscribed; events reach the observer through
/// an `EmissionSerializer`, as `merge`'s do, so concurrent inner sequences never wait for
/// each other's deliveries.
///
/// Starting waiting sequences is a loop, not recursion: one thread at a time runs it
/// (`starting`, under the lock), subscribing while a slot is free; a sequence that
/// completes meanwhile (synchronously inside its own subscription, or on another thread)
/// only frees its slot, and the loop, which checks for free slots under the lock before
/// it ends, starts the next.
private final class MergeLimitedSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Inner.Element {
    typealias Element = SourceElement

    private let selector: (SourceElement) throws -> Inner
    private let maxConcurrent: Int
    private let overflow: Overflow
    private let lock = Lock()
    private let group = CompositeDisposable()
    private let outerSubscription = SingleAssignmentDisposable()
    private var serializer: EmissionSerializer<Inner.Element>!
    /// Sequences that arrived while every slot was taken (under `lock`).
    private var waiting = RingQueue<Observable<Inner.Element>>()
    /// Inner sequences subscribed, or about to be, and not completed (under `lock`).
    private var active = 0
    /// Whether the source has completed (under `lock`).
    private var outerStopped = false
    /// A thread is running `startWaiting`'s loop (under `lock`).
    private var starting = false

    init(selector: @escaping (SourceElement) throws -> Inner, maxConcurrent: Int, overflow: Overflow, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        self.maxConcurrent = maxConcurrent
        self.overflow = overflow
        super.init(observer: observer, cancel: cancel)
        serializer = EmissionSerializer { [unowned self] event in
            switch event {
            case .next:
                forwardOn(event)
            case .error, .completed:
                forwardOn(event)
                dispose()
            }
        }
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(outerSubscription)
        outerSubscription.setDisposable(source.subscribe(self))
        return group
    }

    /// The source's events: elements to map to inner sequences, and its own stop.
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            if overflow == .drop {
                // Dropped before the selector runs, as in RxSwift's flatMapFirst; the slot
                // is taken before the selector runs, so a second element arriving while
                // this one's sequence is being made is dropped too.
                let admitted = lock.performLocked { () -> Bool in
                    guard active < maxConcurrent else { return false }
                    active += 1
                    return true
                }
                guard admitted else { return }
                guard let inner = makeInner(element) else {
                    lock.performLocked { active -= 1 }
                    return
                }
                subscribe(inner)
                return
            }
            guard let inner = makeInner(element) else { return }
            lock.performLocked { waiting.enqueue(inner) }
            startWaiting()
        case .error(let error):
            serializer.emit(.error(error))
        case .completed:
            outerSubscription.dispose()
            let done = lock.performLocked { () -> Bool in
                outerStopped = true
                return isDoneLocked
            }
            if done { serializer.emit(.completed) }
        }
    }

    /// The selector's sequence for `element`, or nil after sending its error.
    private func makeInner(_ element: SourceElement) -> Observable<Inner.Element>? {
        do {
            return try selector(element).asObservable()
        } catch {
            serializer.emit(.error(error))
            return nil
        }
    }

    /// Subscribes waiting sequences while a slot is free, unless another call is doing so.
    private func startWaiting() {
        var next = lock.performLocked { () -> Observable<Inner.Element>? in
            guard !starting else { return nil }
            if let inner = takeWaitingLocked() {
                starting = true
                return inner
            }
            return nil
        }
        while let inner = next {
            subscribe(inner)
            next = lock.performLocked { () -> Observable<Inner.Element>? in
                if let inner = takeWaitingLocked() { return inner }
                starting = false
                return nil
            }
        }
        // Whoever finds everything done sends `completed`; should two threads both find it,
        // the first delivery disposes the sink and the second is dropped.
        if lock.performLocked({ isDoneLocked }) { serializer.emit(.completed) }
    }

    /// A waiting sequence with a slot taken for it, when a slot is free (under `lock`).
    private func takeWaitingLocked() -> Observable<Inner.Element>? {
        guard active < maxConcurrent && !isDisposed, let inner = waiting.dequeue() else { return nil }
        active += 1
        return inner
    }

    /// Completes once the source has and nothing runs, waits or is being started (under `lock`).
    private var isDoneLocked: Bool { outerStopped && !starting && active == 0 && waiting.isEmpty }

    /// An inner sequence's slot: freed when it completes, or at once when it could not be
    /// subscribed (`group` already disposed).
    private func subscribe(_ inner: Observable<Inner.Element>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else {
            lock.performLocked { active -= 1 }
            return
        }
        let serializer = self.serializer!
        subscription.setDisposable(
            inner.subscribe(
                AnyObserver { [self] event in
                    switch event {
                    case .next, .error:
                        serializer.emit(event)
                    case .completed:
                        group.remove(for: key)
                        lock.performLocked { active -= 1 }
                        startWaiting()
                    }
                }))
    }
}
