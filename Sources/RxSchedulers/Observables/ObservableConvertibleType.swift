/// A type that can be turned into an `Observable`.
public protocol ObservableConvertibleType {
    /// The type of the sequence's elements.
    associatedtype Element

    /// This value as an observable sequence.
    func asObservable() -> Observable<Element>
}
