import Foundation

/// Runs work as `BlockOperation`s on an `OperationQueue` with a given queue priority.
/// Concurrency follows the queue's `maxConcurrentOperationCount`.
public class OperationQueueScheduler: ImmediateSchedulerType {
    /// The queue operations are added to.
    public let operationQueue: OperationQueue
    /// The priority given to every operation.
    public let queuePriority: Operation.QueuePriority

    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds one operation; disposing cancels it if it has not started.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return Disposables.create(cancel, Disposables.create(with: operation.cancel))
    }
}
