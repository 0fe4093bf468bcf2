import RxSchedulers

extension SharedSequenceConvertibleType {
    /// The elements after the first `count`. Shared again.
    @inlinable
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }
}
