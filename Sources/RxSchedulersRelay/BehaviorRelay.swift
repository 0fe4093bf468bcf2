import RxSchedulers

/// A `BehaviorSubject` that can neither fail nor complete: it holds a current value, sends
/// it to each new subscriber, and `accept` replaces it. RxRelay's `BehaviorRelay`.
public final class BehaviorRelay<Element>: ObservableType {
    private let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // The subject is never failed nor disposed: `value()` cannot throw here.
        try! subject.value()
    }

    /// Makes `event` the current value and sends it to the subscribers.
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
