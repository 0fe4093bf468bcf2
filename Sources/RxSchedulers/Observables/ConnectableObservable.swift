/// An observable sequence whose source is subscribed only when `connect()` is called,
/// so several observers can subscribe first and then share one subscription.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared source, if it is not subscribed already; disposing the
    /// result ends that subscription.
    func connect() -> Disposable
}

/// A connectable sequence: `multicast`, `publish`, `replay` and `replayAll` return one.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    @usableFromInline override init() { super.init() }

    public func connect() -> Disposable {
        fatalError("Abstract method \(type(of: self)).connect")
    }
}
