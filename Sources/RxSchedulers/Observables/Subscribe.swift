extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures per event kind. `onDisposed` runs once, when the sequence
    /// terminates or the subscription is disposed. An error with no `onError` handler
    /// goes to `Hooks.defaultErrorHandler` (which ignores it unless set). The per-event
    /// code is specialized in the caller.
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposable: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let sink = SubscribeSink<Element>(onNext: onNext, onError: onError, onCompleted: onCompleted, callStack: callStack, disposing: disposable)
        return Disposables.create(asObservable().subscribe(sink.observer), sink)
    }
}

extension ObservableType {
    /// Subscribes closures per event kind that also receive `object`, held weakly: once
    /// `object` is gone, none of them runs. As RxSwift's `subscribe(with:…)`.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in
                if let object { onNext?(object, element) }
            },
            onError: { [weak object] error in
                if let object { onError?(object, error) }
            },
            onCompleted: { [weak object] in
                if let object { onCompleted?(object) }
            },
            onDisposed: { [weak object] in
                if let object { onDisposed?(object) }
            })
    }
}

/// The sink of `subscribe(onNext:onError:onCompleted:onDisposed:)`: the gate, the
/// handlers and the call stack for the default error handler in one object, so the
/// observer's closure captures one reference. The stop path is out of line.
@usableFromInline
final class SubscribeSink<Element>: SinkGate, @unchecked Sendable {
    @usableFromInline let onNext: ((Element) -> Void)?
    @usableFromInline let onError: ((Swift.Error) -> Void)?
    @usableFromInline let onCompleted: (() -> Void)?
    @usableFromInline let callStack: [String]

    @inlinable
    init(
        onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?, callStack: [String],
        disposing disposable: Disposable
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.callStack = callStack
        super.init(disposing: disposable)
    }

    /// The observer to subscribe: a closure over this sink, built here (generic over the
    /// element type only) so a program has one specialized copy per element type.
    @inlinable
    var observer: ClosureObserver<Element> { ClosureObserver { event in self.on(event) } }

    @inlinable
    func on(_ event: Event<Element>) {
        guard case .next(let value) = event else { return end(with: event) }
        if !isClosed { onNext?(value) }
    }

    /// Runs `onError` (or the default error handler) or `onCompleted` once, then disposes.
    @inlinable @inline(never)
    func end(with event: Event<Element>) {
        guard stop() else { return }
        switch event {
        case .next: break
        case .error(let error):
            if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
        case .completed:
            onCompleted?()
        }
        dispose()
    }
}
