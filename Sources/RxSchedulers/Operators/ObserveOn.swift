extension ObservableType {
    /// Delivers every event on `scheduler`, one at a time and in order.
    ///
    /// Guarantees: events reach the observer serialized and in the order they were
    /// sent; a stop event is delivered once; when the subscription is disposed on the
    /// observing serial scheduler, nothing is delivered after `dispose()` returns.
    ///
    /// On a `SerialDispatchQueueScheduler` (including `MainScheduler`) each event is
    /// one scheduled block; on other schedulers events are queued under a lock and
    /// delivered one per recursive schedule (RxSwift's algorithms).
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serialScheduler = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialQueue(source: asObservable(), scheduler: serialScheduler)
        }
        return ObserveOnRecursive(source: asObservable(), scheduler: scheduler)
    }
}
