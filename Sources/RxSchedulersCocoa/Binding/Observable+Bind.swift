import RxSchedulers

// RxCocoa's `bind`: `subscribe` spelled for bindings, whose targets (observers, binders,
// closures) are never meant to see an error. An error traps in debug builds (a binding
// that can fail is a programming error) and is otherwise dropped.

extension ObservableType {
    /// Sends every event to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends every event, its element as an optional, to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// The result of `binder` applied to the sequence.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// The result of the curried `binder` applied to the sequence, then to `curriedArgument`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with `object`, held weakly, and each element (nothing once `object` is gone).
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        subscribe(
            onNext: { [weak object] element in
                if let object { onNext(object, element) }
            },
            onError: bindingFailed)
    }

    /// Calls `onNext` with each element.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: bindingFailed)
    }
}

/// What a binding does with an error: a programming error, which traps in debug builds.
func bindingFailed(_ error: Swift.Error) {
    assertionFailure("a binding received an error: \(error)")
}
