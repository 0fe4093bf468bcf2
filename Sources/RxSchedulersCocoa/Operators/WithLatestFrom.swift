import RxSchedulers

extension SharedSequenceConvertibleType {
    /// For each element, the result of `resultSelector` over it and the latest element of
    /// `second` (see `Observable.withLatestFrom`), shared again.
    @inlinable
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
        _ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType
    ) -> SharedSequence<SharingStrategy, ResultType> where SecondO.SharingStrategy == SharingStrategy {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence(), resultSelector: resultSelector))
    }

    /// For each element, the latest element of `second`, shared again.
    @inlinable
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO) -> SharedSequence<SharingStrategy, SecondO.Element> {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence()))
    }
}
