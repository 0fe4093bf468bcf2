/// Something that is both an observable sequence and an observer feeding it.
public protocol SubjectType: ObservableType {
    /// The observer side's type.
    associatedtype Observer: ObserverType

    /// The observer side.
    func asObserver() -> Observer
}
