/// The trait of a sequence that ends with exactly one element or an error.
public enum SingleTrait {}

/// A sequence of exactly one element, or an error: RxSwift's `Single`.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` ends with.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a `create` closure calls, once.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose subscription runs `subscribe`; the first event it reports is the
    /// single's (an element is sent and completes), later ones are ignored.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the single's one event.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.subscribeToOutcome { event in
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.failure(error))
            case .completed: preconditionFailure("a Single completed without an element")
            }
        }
    }

    /// Subscribes closures for success and failure; `onDisposed` runs once, after either
    /// or when the subscription is disposed. A failure without `onFailure` goes to
    /// `Hooks.defaultErrorHandler`.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        primitiveSequence.subscribeToOutcome(onError: onFailure, onDisposed: onDisposed) { event in
            if case .next(let element) = event { onSuccess?(element) }
        }
    }

    /// `subscribe(onSuccess:onFailure:onDisposed:)` whose closures also receive `object`,
    /// held weakly: once it is gone, none of them runs.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onFailure: { [weak object] error in if let object { onFailure?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } })
    }

    /// RxSwift 5's spelling of `subscribe(onSuccess:onFailure:onDisposed:)`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of `element`.
    public static func just(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: .just(element))
    }

    /// A single of `element`, sent on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        PrimitiveSequence(raw: .just(element, scheduler: scheduler))
    }

}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs side effects on the single's events and lifecycle (see `ObservableType.do`).
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The element if `predicate` holds for it, else nothing: a `Maybe`.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// The element transformed.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// The element transformed, or nothing when the transform gives `nil`: a `Maybe`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// The single `selector` makes of the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// The maybe `selector` makes of the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// The completable `selector` makes of the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// The elements of every single of `collection`, once all have succeeded, combined by
    /// `resultSelector` (an empty collection succeeds at once with `resultSelector([])`).
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>.deferred { .just(try resultSelector([])) }
        }
        return PrimitiveSequence<Trait, Result>(raw: Observable<Result>.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The elements of every single of `collection`, in order, once all have succeeded.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]>
    where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty { return .just([]) }
        return PrimitiveSequence<Trait, [Element]>(raw: Observable<Element>.zip(collection.map { $0.asObservable() }))
    }

    /// On failure, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// The single as a `Maybe` that always has its element.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source)
    }

    /// The single as a `Completable`: its element is dropped, its end kept.
    public func asCompletable() -> Completable {
        PrimitiveSequence(raw: primitiveSequence.source.ignoreElements())
    }
}
