import RxSchedulers

extension SharedSequenceConvertibleType {
    /// An element once `dueTime` has passed without a newer one, timed on the sharing
    /// scheduler. Shared again.
    @inlinable
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }
}
