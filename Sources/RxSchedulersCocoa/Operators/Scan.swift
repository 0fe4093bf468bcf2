import RxSchedulers

extension SharedSequenceConvertibleType {
    /// Each intermediate result of folding the elements into `seed` with `accumulator`.
    /// Shared again: observers share one fold.
    @inlinable
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate)
        -> SharedSequence<SharingStrategy, Accumulate>
    {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }
}
