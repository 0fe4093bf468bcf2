import RxSchedulers

extension SharedSequenceConvertibleType {
    /// The elements of the shared sequence `selector` returns, ignoring elements that
    /// arrive while an inner sequence is still running. Shared again.
    @inlinable
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>)
        -> SharedSequence<Sharing, Result>
    {
        SharedSequence(asObservable().flatMapFirst(selector))
    }
}
