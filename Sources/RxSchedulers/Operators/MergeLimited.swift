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

/// Under one recursive lock (as `merge`'s): the waiting queue, the active count, and every
/// event sent downstream, so events reach the observer one at a time.
private final class MergeLimitedSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Inner.Element {
    typealias Element = SourceElement

    private let selector: (SourceElement) throws -> Inner
    private let maxConcurrent: Int
    private let overflow: Overflow
    private let lock = Lock(recursive: true)
    private let group = CompositeDisposable()
    private let outerSubscription = SingleAssignmentDisposable()
    private var waiting = RingQueue<Observable<Inner.Element>>()
    private var active = 0
    private var outerStopped = false
    /// A call of `startWaiting` is on the stack; a nested one leaves the work to it.
    private var starting = false

    init(selector: @escaping (SourceElement) throws -> Inner, maxConcurrent: Int, overflow: Overflow, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        self.maxConcurrent = maxConcurrent
        self.overflow = overflow
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(outerSubscription)
        outerSubscription.setDisposable(source.subscribe(self))
        return group
    }

    /// The source's events: elements to map to inner sequences, and its own stop.
    func on(_ event: Event<SourceElement>) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .next(let element):
            // Dropped before the selector runs, as in RxSwift's flatMapFirst.
            if overflow == .drop && active >= maxConcurrent { return }
            let inner: Inner
            do { inner = try selector(element) } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            waiting.enqueue(inner.asObservable())
            startWaiting()
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            outerStopped = true
            outerSubscription.dispose()
            completeIfDone()
        }
    }

    /// Subscribes waiting sequences while there are free slots (under `lock`).
    private func startWaiting() {
        guard !starting else { return }
        starting = true
        while active < maxConcurrent, !isDisposed, let next = waiting.dequeue() {
            active += 1
            subscribe(next)
        }
        starting = false
        completeIfDone()
    }

    /// Completes once the source has and nothing runs or waits (under `lock`).
    private func completeIfDone() {
        guard outerStopped, !starting, active == 0, waiting.isEmpty else { return }
        forwardOn(.completed)
        dispose()
    }

    private func subscribe(_ inner: Observable<Inner.Element>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(
            inner.subscribe(
                AnyObserver { [self] event in
                    lock.lock()
                    defer { lock.unlock() }
                    switch event {
                    case .next:
                        forwardOn(event)
                    case .error:
                        forwardOn(event)
                        dispose()
                    case .completed:
                        group.remove(for: key)
                        active -= 1
                        startWaiting()
                    }
                }))
    }
}
