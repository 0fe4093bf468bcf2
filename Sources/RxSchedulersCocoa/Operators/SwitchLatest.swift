import RxSchedulers

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// The elements of the latest inner shared sequence; each new inner sequence disposes
    /// the previous one's subscription. Shared again.
    @inlinable
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().switchLatest())
    }
}
