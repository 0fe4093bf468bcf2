/// A type that is, or converts to, an ``Infallible``: a sequence that never fails.
public protocol InfallibleType: ObservableConvertibleType {}

/// An observable sequence that never fails: it sends elements and may complete, but has
/// no error event. RxSwift's `Infallible`, with its names and semantics.
///
/// The value wraps the observable it was made from (`create`, `asInfallible(…)`, its
/// operators), which is guaranteed error-free by how it was made; subscribing to it
/// subscribes to that observable, at no extra cost.
public struct Infallible<Element>: InfallibleType {
    @usableFromInline let source: Observable<Element>

    @inlinable
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The observable this sequence wraps.
    @inlinable
    public func asObservable() -> Observable<Element> { source }
}

/// An event of an ``Infallible``: an element, or completion.
@frozen
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The end of the sequence.
    case completed
}

extension InfallibleType {
    /// Subscribes closures for elements and completion; `onDisposed` runs once, after
    /// completion or when the subscription is disposed.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// `subscribe(onNext:onCompleted:onDisposed:)` whose closures also receive `object`,
    /// held weakly: once it is gone, none of them runs.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe { event in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error(let error): preconditionFailure("an Infallible failed: \(error)")
            }
        }
    }
}

extension Infallible {
    /// The callback a `create` closure calls.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An infallible whose subscription runs `subscribe` with a callback for its events;
    /// after `.completed` the callback ignores everything.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(
            Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element): observer.on(.next(element))
                    case .completed: observer.on(.completed)
                    }
                }
            })
    }
}

extension ObservableConvertibleType {
    /// The sequence as an infallible that, on error, sends `element` and completes.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an infallible that, on error, continues with `infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an infallible that, on error, continues with the infallible
    /// `onErrorRecover` makes of it.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}
