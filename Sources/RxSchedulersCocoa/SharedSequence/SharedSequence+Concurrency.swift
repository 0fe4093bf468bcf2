import RxSchedulers

extension SharedSequence {
    /// The elements as an asynchronous sequence, iterated on the main actor: it ends when
    /// the shared sequence completes (it cannot fail); cancelling the loop's task disposes
    /// the subscription.
    @MainActor
    public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let subscription = asObservable().subscribe(onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}
