import RxSchedulers

extension SharedSequenceConvertibleType {
    /// Each element transformed by `selector`, shared again.
    @inlinable
    public func map<Result>(_ selector: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(selector))
    }
}
