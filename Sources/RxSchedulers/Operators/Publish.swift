extension ObservableType {
    /// A connectable sequence of the source through a `PublishSubject`: observers receive
    /// what the source sends while they are subscribed and connected.
    public func publish() -> ConnectableObservable<Element> {
        multicast { PublishSubject() }
    }
}
