import Dispatch
import RxSchedulers

/// A Swift concurrency peer: each scheduled action is a `Task` isolated to `PeerActor`, a
/// global actor whose `unownedExecutor` is `QueueExecutor`, a `SerialExecutor` of ours
/// that runs jobs on one serial `DispatchQueue`.
///
/// The Task's closure is isolated to the actor, so it is enqueued on the actor directly
/// from the scheduling thread (SE-0431), in the order scheduled; every Task has the same
/// explicit priority, so none overtakes another. The actor runs one job at a time: the
/// scheduler claims `.serial`. Cost per action: a Task (a job allocation and its context)
/// and a `SingleAssignmentDisposable`.
final class ExecutorActorScheduler: ImmediateSchedulerType {
    private static let priority = TaskPriority.medium

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        // Runs once, on the actor; the core's disposables are made for any thread.
        nonisolated(unsafe) let run = {
            if !disposable.isDisposed { disposable.setDisposable(action(state)) }
        }
        Task(priority: Self.priority) { @PeerActor in run() }
        return disposable
    }
}

/// The actor the executor peer's actions run on.
@globalActor
actor PeerActor {
    static let shared = PeerActor()

    private static let executor = QueueExecutor(label: "schedbench.peer.executor")

    nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
}

/// A serial executor over a serial dispatch queue: each job runs synchronously on the
/// queue, in the order enqueued.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
