/// An observable sequence whose `Trait` narrows its grammar: a `Single` ends with exactly
/// one element or an error, a `Maybe` with at most one element, a `Completable` with
/// none. RxSwift's `PrimitiveSequence`, with its names and semantics.
///
/// The value wraps the observable it was made from; building one costs nothing beyond
/// that observable, and subscribing to it subscribes to the observable. The trait is
/// guaranteed by how a value is made (`create`, `asSingle()`, `asMaybe()`, the trait's
/// operators), not checked per event.
public struct PrimitiveSequence<Trait, Element> {
    @usableFromInline let source: Observable<Element>

    @inlinable
    init(raw: Observable<Element>) {
        source = raw
    }
}

/// A type that is, or converts to, a ``PrimitiveSequence``: what the trait-specific
/// operators extend.
public protocol PrimitiveSequenceType {
    /// The trait: ``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``.
    associatedtype Trait
    /// The element type.
    associatedtype Element

    /// `self` as a primitive sequence.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    @inlinable
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The observable this sequence wraps.
    @inlinable
    public func asObservable() -> Observable<Element> { source }
}

// The operators every trait has: each applies the observable operator of the same name
// and keeps the trait, because none of them can add an element or drop the stop event.
extension PrimitiveSequence {
    /// A sequence made by `factory` anew for each subscription; a thrown error is the
    /// sequence's error.
    public static func deferred(_ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try factory().asObservable() })
    }

    /// The events shifted later by `dueTime` on `scheduler`; an error is not delayed.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes `dueTime` after the subscription, on `scheduler`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers the events on `scheduler` (see `ObservableType.observe(on:)`).
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes, and disposes, on `scheduler` (see `ObservableType.subscribe(on:)`).
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// On error, continues with the sequence `handler` makes of it.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// Subscribes at most `maxAttemptCount` times in all; after the last failure, its error.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Subscribes again each time the sequence `notificationHandler` makes of the errors
    /// sends an element (see `ObservableType.retry(when:)`).
    public func retry<Error: Swift.Error, Trigger: ObservableType>(when notificationHandler: @escaping (Observable<Error>) -> Trigger)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// `retry(when:)` with the errors untyped.
    public func retry<Trigger: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> Trigger)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Prints each subscription, event and disposal (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// A sequence tied to a resource: `resourceFactory` makes it at subscription, the
    /// sequence is made from it, and it is disposed with the subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }

    /// Fails with `RxError.timeout` unless it ends within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` unless it ends within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

// Creation that every trait has the same way.
extension PrimitiveSequence {
    /// A sequence of this trait that fails with `error`.
    public static func error(_ error: Swift.Error) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: .error(error))
    }

    /// A sequence of this trait that never ends.
    public static func never() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: .never())
    }
}

// The subscriptions of the traits: each receives one outcome, its first event.
extension PrimitiveSequence {
    /// Subscribes `handle` to the first event only (a trait's outcome; a well-made trait
    /// sends nothing after it but the completion that follows an element).
    func subscribeToOutcome(_ handle: @escaping (Event<Element>) -> Void) -> Disposable {
        var ended = false  // the source's serialized calls only
        return source.subscribe { event in
            if ended { return }
            ended = true
            handle(event)
        }
    }

    /// The closure form of the traits' `subscribe`: `handle` receives the outcome unless
    /// it is an error, which goes to `onError`, or without one to `Hooks.defaultErrorHandler`
    /// (with the call stack captured here when `Hooks.recordCallStackOnError`); then
    /// `onDisposed` runs, once, as it does when the subscription is disposed first.
    func subscribeToOutcome(
        onError: ((Swift.Error) -> Void)?, onDisposed: (() -> Void)?, _ handle: @escaping (Event<Element>) -> Void
    ) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribeToOutcome { event in
            if case .error(let error) = event {
                if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
            } else {
                handle(event)
            }
            disposed.dispose()
        }
        return Disposables.create(subscription, disposed)
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// `0` after `dueTime` on `scheduler`, then the end.
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
