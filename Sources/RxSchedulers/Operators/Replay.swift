extension ObservableType {
    /// A connectable sequence of the source through a `ReplaySubject` of `bufferSize`: a
    /// new observer first receives up to the last `bufferSize` elements.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast { ReplaySubject.create(bufferSize: bufferSize) }
    }

    /// A connectable sequence of the source through an unbounded `ReplaySubject`: a new
    /// observer first receives every element sent so far.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast { ReplaySubject.createUnbounded() }
    }
}
