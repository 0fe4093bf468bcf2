import RxSchedulers

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Each element combined by `resultSelector` with `object`, held weakly; completes once
    /// `object` is gone (see `ObservableType.withUnretained`). Shared again.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out)
        -> SharedSequence<SharingStrategy, Out>
    {
        SharedSequence(asObservable().withUnretained(object, resultSelector: resultSelector))
    }

    /// Each element paired with `object`, held weakly; completes once `object` is gone.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(object))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    // As in RxCocoa: a driver's replayed element would hold the object, so drivers use
    // `drive(with:onNext:…)` instead.
    @available(*, unavailable, message: "withUnretained is unavailable for Driver: use drive(with:onNext:onCompleted:onDisposed:)")
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out)
        -> SharedSequence<SharingStrategy, Out>
    {
        SharedSequence(asObservable().withUnretained(object, resultSelector: resultSelector))
    }

    @available(*, unavailable, message: "withUnretained is unavailable for Driver: use drive(with:onNext:onCompleted:onDisposed:)")
    public func withUnretained<Object: AnyObject>(_ object: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(object))
    }
}
