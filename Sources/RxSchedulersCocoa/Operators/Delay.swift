import RxSchedulers

extension SharedSequenceConvertibleType {
    /// Every event `dueTime` later, on the sharing scheduler. Shared again.
    @inlinable
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}
