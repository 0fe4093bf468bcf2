extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of the result of `work`, run in a task for each subscription (detached
    /// from the caller's task when `detached`); disposing cancels the task.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil, work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        create { single in
            let operation: @Sendable () async -> Void = {
                do {
                    single(.success(try await work()))
                } catch {
                    single(.failure(error))
                }
            }
            let task = detached ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }

    /// The single's element, awaited; its error is thrown. Cancelling the awaiting task
    /// disposes the subscription (and throws `CancellationError`).
    public var value: Element {
        get async throws {
            try await awaitOutcome { resume in
                self.subscribe(
                    onSuccess: { resume(.success($0)) },
                    onFailure: { resume(.failure($0)) },
                    onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The maybe's element, or `nil` if it completed without one, awaited; its error is
    /// thrown. Cancelling the awaiting task disposes the subscription.
    public var value: Element? {
        get async throws {
            try await awaitOutcome { resume in
                self.subscribe(
                    onSuccess: { resume(.success($0)) },
                    onError: { resume(.failure($0)) },
                    onCompleted: { resume(.success(nil)) },
                    onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Awaits the completable's completion; its error is thrown. Cancelling the awaiting
    /// task disposes the subscription.
    public var value: Void {
        get async throws {
            try await awaitOutcome { resume in
                self.subscribe(
                    onCompleted: { resume(.success(())) },
                    onError: { resume(.failure($0)) },
                    onDisposed: { resume(.failure(CancellationError())) })
            }
        }
    }
}
