/// A push-based sequence that observers subscribe to.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer`; the returned disposable ends the subscription.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
