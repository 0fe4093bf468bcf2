/// The base class of every observable sequence in the core.
///
/// Each instance is counted in `Resources.total` while alive.
public class Observable<Element>: ObservableType {
    @usableFromInline init() { Resources.incrementTotal() }

    deinit { Resources.decrementTotal() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Abstract method \(type(of: self)).subscribe")
    }

    public func asObservable() -> Observable<Element> { self }
}
