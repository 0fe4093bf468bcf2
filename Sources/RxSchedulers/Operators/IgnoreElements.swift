extension ObservableType {
    /// Only the source's stop event: its elements are dropped.
    public func ignoreElements() -> Observable<Never> {
        let source = asObservable()
        return Observable<Never>.create { observer in
            source.subscribe { event in
                switch event {
                case .next: break
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }
}
