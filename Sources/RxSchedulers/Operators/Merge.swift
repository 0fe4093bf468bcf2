extension ObservableType {
    /// Each element mapped to an inner sequence, all inner sequences merged. Completes
    /// when the source and every inner sequence have completed; any error ends it.
    /// The per-event code is specialized in the caller.
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        let source = asObservable()
        return ClosureProducer<Source.Element> { downstream, cancel in
            let sink = MergeSink(downstream: downstream, cancel: cancel)
            let outer = ClosureObserver<Element> { event in
                switch event {
                case .next(let element):
                    let inner: Source
                    do {
                        inner = try selector(element)
                    } catch {
                        sink.fail(error)
                        return
                    }
                    sink.subscribeInner(inner.asObservable())
                case .error(let error):
                    sink.fail(error)
                case .completed:
                    sink.outerCompleted()
                }
            }
            return (sink.gate, sink.run(source, outer: outer))
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of every inner sequence, merged as they arrive.
    @inlinable
    public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }
}

extension ObservableType {
    /// The elements of all `sources`, merged as they arrive.
    @inlinable
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        Observable.from(Array(sources)).flatMap { $0 }
    }

    /// The elements of all `sources`, merged as they arrive.
    @inlinable
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable.from(sources).flatMap { $0 }
    }

    /// The elements of all `sources`, merged as they arrive.
    @inlinable
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        Observable.from(sources).flatMap { $0 }
    }
}

/// The state of one `flatMap`/`merge` subscription: the inner subscriptions, how many
/// are active, and a recursive lock under which events of concurrent inner sources reach
/// the observer one at a time (recursive, as in RxSwift, so an observer that makes an
/// inner source emit synchronously does not deadlock).
///
/// Nothing is disposed under the lock (as RxSwift main since #2711): a completed inner
/// subscription, the outer one, and the whole subscription after a stop event are
/// disposed after the lock is released, since tearing a source down may take its own
/// locks, which a thread sending into the merge may hold.
///
/// Inlinable, so the per-event closure `subscribeInner` builds is specialized in the
/// caller's module (unspecialized, three generic-metadata lookups per event cost more
/// than the rest of the merge).
@usableFromInline
final class MergeSink<Element>: @unchecked Sendable {
    @usableFromInline let downstream: AnyObserver<Element>
    @usableFromInline let gate: SinkGate
    @usableFromInline let lock = Lock(recursive: true)
    @usableFromInline let group = CompositeDisposable()
    @usableFromInline let outerSubscription = SingleAssignmentDisposable()
    /// Inner sequences subscribed and not completed (under `lock`).
    @usableFromInline var activeCount = 0
    /// Whether the outer sequence has completed (under `lock`).
    @usableFromInline var outerStopped = false

    @inlinable
    init(downstream: AnyObserver<Element>, cancel: Cancelable) {
        self.downstream = downstream
        self.gate = SinkGate(disposing: cancel)
    }

    /// Subscribes `outer` to the source; returns what disposes every subscription.
    @inlinable
    func run<SourceElement>(_ source: Observable<SourceElement>, outer: ClosureObserver<SourceElement>) -> Disposable {
        _ = group.insert(outerSubscription)
        outerSubscription.setDisposable(source.subscribe(outer))
        return group
    }

    /// Sends `error` and ends the subscription.
    @inlinable
    func fail(_ error: Swift.Error) {
        lock.lock()
        let ended = gate.sendStop(.error(error), to: downstream)
        lock.unlock()
        if ended { gate.dispose() }
    }

    /// The outer sequence completed: completes now if no inner sequence is active.
    @inlinable
    func outerCompleted() {
        lock.lock()
        outerStopped = true
        let ended = activeCount == 0 && gate.sendStop(.completed, to: downstream)
        lock.unlock()
        outerSubscription.dispose()
        if ended { gate.dispose() }
    }

    @inlinable
    func subscribeInner(_ inner: Observable<Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        lock.lock()
        activeCount += 1
        lock.unlock()
        let observer = ClosureObserver<Element> { event in
            stressPoint(.mergeForwarding)
            if SeededBug.isActive(.mergeUnserialized), case .next = event {
                if !self.gate.isClosed { self.downstream.on(event) }
                return
            }
            self.lock.lock()
            switch event {
            case .next:
                if !self.gate.isClosed { self.downstream.on(event) }
                self.lock.unlock()
            case .error:
                let ended = self.gate.sendStop(event, to: self.downstream)
                self.lock.unlock()
                if ended { self.gate.dispose() }
            case .completed:
                self.activeCount -= 1
                let ended = self.outerStopped && self.activeCount == 0 && self.gate.sendStop(.completed, to: self.downstream)
                self.lock.unlock()
                self.group.remove(for: key)
                if ended { self.gate.dispose() }
            }
        }
        innerSubscription.setDisposable(inner.subscribe(observer))
    }
}
