import RxSchedulers

extension SharedSequenceConvertibleType {
    /// At most one element per `dueTime`, timed on the sharing scheduler, as
    /// `Observable.throttle` does (with `latest`, the latest element of a window is
    /// delivered at its end). Shared again.
    @inlinable
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }
}
