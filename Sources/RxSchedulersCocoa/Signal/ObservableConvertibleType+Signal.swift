import RxSchedulers

extension ObservableConvertibleType {
    /// This sequence as a `Signal`: observed on the main scheduler, an error replaced by
    /// `onErrorJustReturn` followed by completion, shared without replay.
    @inlinable
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a `Signal`: observed on the main scheduler, an error replaced by
    /// what `onErrorSignalWith` delivers.
    @inlinable
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: onErrorSignalWith)
    }

    /// This sequence as a `Signal`: observed on the main scheduler, an error replaced by
    /// what the signal `onErrorRecover` returns for it delivers.
    @inlinable
    public func asSignal(onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}
