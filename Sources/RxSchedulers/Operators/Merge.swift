import Synchronization

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
/// sources are still running, and the `EmissionSerializer` through which events of
/// concurrent inner sources reach the observer one at a time, each source's in its order,
/// with no lock held while the observer runs (RxSwift holds a recursive lock across
/// delivery: at 16 producers every sender waited for the one delivering).
///
/// Every event goes through the serializer, stop events included, so a `completed` or an
/// `error` is delivered after the events sent before it and ends the subscription:
/// events still queued behind it are dropped, and it is disposed right after the stop
/// event is delivered. An observer that makes an inner source emit on its own thread
/// gets that event after its call returns (RxSwift delivers it inside the call, under
/// the recursive lock): see "Differences from RxSwift".
///
/// Completion: `running` counts the outer source and each inner one subscribed and not
/// completed; the source whose completion takes it to zero sends `completed`. Nothing is
/// disposed while an event is being delivered by another thread's call into this sink.
///
/// Inlinable, so the per-event closure `subscribeInner` builds is specialized in the
/// caller's module (unspecialized, three generic-metadata lookups per event cost more
/// than the rest of the merge).
@usableFromInline
final class MergeSink<Element>: @unchecked Sendable {
    @usableFromInline let downstream: AnyObserver<Element>
    @usableFromInline let gate: SinkGate
    @usableFromInline let group = CompositeDisposable()
    @usableFromInline let outerSubscription = SingleAssignmentDisposable()
    /// The outer source, until it completes, plus the inner sources subscribed and not completed.
    @usableFromInline let running = Atomic<Int>(1)
    @usableFromInline let serializer: EmissionSerializer<Element>

    @inlinable
    init(downstream: AnyObserver<Element>, cancel: Cancelable) {
        let gate = SinkGate(disposing: cancel)
        self.downstream = downstream
        self.gate = gate
        serializer = EmissionSerializer { event in
            switch event {
            case .next:
                if !gate.isClosed { downstream.on(event) }
            case .error, .completed:
                if gate.sendStop(event, to: downstream) { gate.dispose() }
            }
        }
    }

    /// Subscribes `outer` to the source; returns what disposes every subscription.
    @inlinable
    func run<SourceElement>(_ source: Observable<SourceElement>, outer: ClosureObserver<SourceElement>) -> Disposable {
        _ = group.insert(outerSubscription)
        outerSubscription.setDisposable(source.subscribe(outer))
        return group
    }

    /// Sends `error` (after what was sent before it) and ends the subscription.
    @inlinable
    func fail(_ error: Swift.Error) {
        serializer.emit(.error(error))
    }

    /// The outer sequence completed: completes once no inner sequence runs.
    @inlinable
    func outerCompleted() {
        outerSubscription.dispose()
        sourceCompleted()
    }

    /// A source (the outer one or an inner one) completed: the last one sends `completed`.
    @inlinable
    func sourceCompleted() {
        if running.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
            serializer.emit(.completed)
        }
    }

    @inlinable
    func subscribeInner(_ inner: Observable<Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        running.wrappingAdd(1, ordering: .acquiringAndReleasing)
        let serializer = self.serializer
        let observer = ClosureObserver<Element> { event in
            switch event {
            case .next, .error:
                serializer.emit(event)
            case .completed:
                self.group.remove(for: key)
                self.sourceCompleted()
            }
        }
        innerSubscription.setDisposable(inner.subscribe(observer))
    }
}
