import RxSchedulers

extension ObservableConvertibleType {
    /// This sequence as a shared sequence of strategy `S`: observed on `S.scheduler`, an
    /// error replaced by `onErrorJustReturn` followed by completion, shared as `S` says.
    @inlinable
    public func asSharedSequence<S>(sharingStrategy _: S.Type = S.self, onErrorJustReturn: Element) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a shared sequence of strategy `S`: observed on `S.scheduler`, an
    /// error replaced by what `onErrorDriveWith` delivers, shared as `S` says.
    @inlinable
    public func asSharedSequence<S>(sharingStrategy _: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>)
        -> SharedSequence<S, Element>
    {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.asObservable() })
    }

    /// This sequence as a shared sequence of strategy `S`: observed on `S.scheduler`, an
    /// error replaced by what the shared sequence `onErrorRecover` returns for it delivers,
    /// shared as `S` says.
    @inlinable
    public func asSharedSequence<S>(
        sharingStrategy _: S.Type = S.self, onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { error in onErrorRecover(error).asObservable() })
    }
}
