import RxSchedulers

extension SharedSequenceConvertibleType {
    /// Each element transformed by `selector`, leaving out those it maps to `nil`, shared again.
    @inlinable
    public func compactMap<Result>(_ selector: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(selector))
    }
}
