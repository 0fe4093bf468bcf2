import RxSchedulers

/// A `PublishSubject` that can neither fail nor complete: `accept` sends an element to the
/// current subscribers. RxRelay's `PublishRelay`, for state and events in UI code.
public final class PublishRelay<Element>: ObservableType {
    private let subject = PublishSubject<Element>()

    public init() {}

    /// Sends `event` to the current subscribers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }

    /// The relay as an `Infallible`, which it is.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}
