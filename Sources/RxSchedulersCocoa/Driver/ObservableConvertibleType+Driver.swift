import RxSchedulers

extension ObservableConvertibleType {
    /// This sequence as a `Driver`: observed on the main scheduler, an error replaced by
    /// `onErrorJustReturn` followed by completion, the latest element replayed while shared.
    @inlinable
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a `Driver`: observed on the main scheduler, an error replaced by
    /// what `onErrorDriveWith` delivers.
    @inlinable
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorDriveWith: onErrorDriveWith)
    }

    /// This sequence as a `Driver`: observed on the main scheduler, an error replaced by
    /// what the driver `onErrorRecover` returns for it delivers.
    @inlinable
    public func asDriver(onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}
