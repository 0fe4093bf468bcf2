extension ObservableType {
    /// Subscribes again after every error, until the sequence completes. Endless while
    /// the source keeps failing.
    public func retry() -> Observable<Element> {
        Observable.catch(sequence: Swift.repeatElement(asObservable(), count: Int.max))
    }

    /// Subscribes at most `maxAttemptCount` times in all (`retry(2)` retries once); after
    /// the last failure, its error. With 0 attempts it completes at once, as RxSwift's.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        Observable.catch(sequence: Swift.repeatElement(asObservable(), count: Swift.max(0, maxAttemptCount)))
    }
}
