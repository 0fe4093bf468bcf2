import RxSchedulers

/// A type that is, or converts to, a ``ControlEvent``.
public protocol ControlEventType: ObservableType {
    /// The sequence as a control event.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a UI control as a sequence, RxCocoa's `ControlEvent`: it is subscribed on
/// the main thread (`subscribe(on: ConcurrentMainScheduler.instance)`, which this type
/// applies); the source it wraps must also send no initial value, never fail, deliver on
/// the main scheduler and complete when the control goes away. Those it cannot check:
/// wrap only a source that keeps them.
public struct ControlEvent<PropertyType>: ControlEventType {
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// A control event of `events`, subscribed on the main thread.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { events }

    public func asControlEvent() -> ControlEvent<Element> { self }

    /// The control event as an `Infallible`, which it is.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }

    /// The control event as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asDriver { error in
            assertionFailure("a control event failed: \(error)")
            return .empty()
        }
    }

    /// The control event as a `Signal`.
    public func asSignal() -> Signal<Element> {
        asSignal { error in
            assertionFailure("a control event failed: \(error)")
            return .empty()
        }
    }
}
