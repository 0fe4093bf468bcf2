extension ObservableType {
    /// `elements`, then the source's events: the elements are sent when the subscription
    /// starts, before the source is subscribed.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        Observable.concat([Observable.from(elements), asObservable()])
    }
}
