/// A type-erased observer that forwards events to a handler.
public struct AnyObserver<Element>: ObserverType {
    /// The handler events are sent to.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline let observer: EventHandler

    /// An observer that calls `eventHandler` for each event.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// An observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = eventHandler(of: observer)
    }

    @inlinable
    public func on(_ event: Event<Element>) { observer(event) }

    /// This observer.
    public func asObserver() -> AnyObserver<Element> { self }
}

extension ObserverType {
    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    /// An observer that transforms elements with `transform` before sending them here.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}

/// `observer`'s event handler as a closure: for closure-built and type-erased observers
/// the closure they already hold, which saves an indirect call per event and hop
/// (`observer.on` would wrap it once more); `observer.on` for any other observer.
func eventHandler<Observer: ObserverType>(of observer: Observer) -> (Event<Observer.Element>) -> Void {
    if let closureObserver = observer as? ClosureObserver<Observer.Element> {
        return closureObserver.handler
    }
    if let anyObserver = observer as? AnyObserver<Observer.Element> {
        return anyObserver.observer
    }
    return observer.on
}
