extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures per event kind. `onDisposed` runs once, when the sequence
    /// terminates or the subscription is disposed. An error with no `onError` handler
    /// is ignored, after `onDisposed`.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposable: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let observer = AnonymousObserver<Element> { event in
            switch event {
            case .next(let value):
                onNext?(value)
            case .error(let error):
                onError?(error)
                disposable.dispose()
            case .completed:
                onCompleted?()
                disposable.dispose()
            }
        }
        return Disposables.create(asObservable().subscribe(observer), disposable)
    }
}
