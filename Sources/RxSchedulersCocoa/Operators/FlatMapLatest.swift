import RxSchedulers

extension SharedSequenceConvertibleType {
    /// The elements of the shared sequence `selector` returned for the latest element;
    /// each new element disposes the previous inner subscription. Shared again.
    @inlinable
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>)
        -> SharedSequence<Sharing, Result>
    {
        SharedSequence(asObservable().flatMapLatest(selector))
    }
}
