/// The trait of a sequence that only ends: it completes or fails, with no element.
public enum CompletableTrait {}

/// A sequence with no elements that completes or fails: RxSwift's `Completable`.
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a ``Completable`` ends with.
@frozen
public enum CompletableEvent {
    /// An error; the completable is over.
    case error(Swift.Error)
    /// Success; the completable is over.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The callback a `create` closure calls, once.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A completable whose subscription runs `subscribe`; the first event it reports is
    /// the completable's, later ones are ignored.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        let source = Observable<Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the completable's one event.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        primitiveSequence.subscribeToOutcome { event in
            switch event {
            case .next: preconditionFailure("a Completable sent an element")
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes closures per outcome; `onDisposed` runs once, after either or when the
    /// subscription is disposed. An error without `onError` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        primitiveSequence.subscribeToOutcome(onError: onError, onDisposed: onDisposed) { event in
            if case .completed = event { onCompleted?() }
        }
    }

    /// `subscribe(onCompleted:onError:onDisposed:)` whose closures also receive `object`,
    /// held weakly: once it is gone, none of them runs.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } })
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// A completable that completes at once.
    public static func empty() -> Completable {
        PrimitiveSequence(raw: .empty())
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs side effects on the completable's events and lifecycle (see `ObservableType.do`).
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// This completable, then `second`.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Each completable of `sequence` in turn, each subscribed when the one before it
    /// completed; the first error ends it.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Each completable of `collection` in turn (see `concat(_:)` of a sequence).
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable
    where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Each completable of `sources` in turn.
    public static func concat(_ sources: Completable...) -> Completable {
        concat(sources)
    }

    /// All completables of `sources` at once; completes when every one has, and fails with
    /// the first error.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// All completables of `sources` at once (see `zip(_:)` of a collection).
    public static func zip(_ sources: [Completable]) -> Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// All completables of `sources` at once (see `zip(_:)` of a collection).
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}
