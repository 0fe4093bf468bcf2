import Synchronization

extension ObservableConvertibleType {
    /// The elements as an asynchronous sequence: iterating it subscribes, each element is
    /// buffered until the loop takes it, the source's error is thrown by the loop, and
    /// leaving the loop (or cancelling its task) disposes the subscription. A subscription
    /// disposed from elsewhere ends the loop with `CancellationError`.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream<Element, Swift.Error> { continuation in
            let ended = AtomicFlag()
            let subscription = asObservable().subscribe(
                onNext: { continuation.yield($0) },
                onError: { error in
                    ended.set()
                    continuation.finish(throwing: error)
                },
                onCompleted: {
                    ended.set()
                    continuation.finish()
                },
                onDisposed: {
                    if ended.set() { continuation.finish(throwing: CancellationError()) }
                })
            continuation.onTermination = { termination in
                if case .cancelled = termination { subscription.dispose() }
            }
        }
    }
}

extension AsyncSequence {
    /// The sequence as an observable: each subscription iterates it in a new task (with
    /// `priority`), sending each element; the end of the sequence completes, a thrown
    /// error fails it (`CancellationError` completes), and disposing cancels the task.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.create { observer in
            let task = Task.detached(priority: priority) {
                do {
                    for try await element in self { observer.onNext(element) }
                    observer.onCompleted()
                } catch is CancellationError {
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

/// A flag set once, from any thread: what resumes a continuation exactly once.
final class AtomicFlag: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)

    /// Sets the flag; `true` for the one call that set it.
    @discardableResult
    func set() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Awaits the one outcome `subscribe` reports through its `resume` callback (called at
/// most once counts: later calls are ignored), disposing the subscription if the task is
/// cancelled; a subscription disposed without an outcome throws `CancellationError`.
func awaitOutcome<Value>(
    _ subscribe: @escaping (_ resume: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable
) async throws -> Value {
    let subscription = SingleAssignmentDisposable()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Swift.Error>) in
            let resumed = AtomicFlag()
            subscription.setDisposable(
                subscribe { outcome in
                    if resumed.set() { continuation.resume(with: outcome) }
                })
        }
    } onCancel: {
        subscription.dispose()
    }
}
