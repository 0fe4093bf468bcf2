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
        let gate = SinkGate(disposing: disposable)
        let observer = ClosureObserver<Element> { event in
            switch event {
            case .next(let value):
                if !gate.isClosed { onNext?(value) }
            case .error(let error):
                guard gate.stop() else { return }
                if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
                gate.dispose()
            case .completed:
                guard gate.stop() else { return }
                onCompleted?()
                gate.dispose()
            }
        }
        return Disposables.create(asObservable().subscribe(observer), gate)
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
