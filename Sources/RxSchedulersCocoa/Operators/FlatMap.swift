import RxSchedulers

extension SharedSequenceConvertibleType {
    /// The elements of every shared sequence `selector` returns, merged, shared again.
    @inlinable
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap(selector))
    }
}
