import RxSchedulers

extension SharedSequence {
    /// The elements of each source in turn, the next subscribed when the previous
    /// completes. Shared again.
    @inlinable
    public static func concat<Sources: Swift.Sequence>(_ sources: Sources) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sources.map { $0.asObservable() }))
    }
}
