import RxSchedulers

extension SharedSequenceConvertibleType {
    /// The elements for which `predicate` is true, shared again.
    @inlinable
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }
}
