import RxSchedulers

extension SharedSequenceConvertibleType {
    /// `element` first, then the source's elements. Shared again.
    @inlinable
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().startWith(element))
    }
}
