import Dispatch
import Synchronization

/// Runs work on the main dispatch queue.
///
/// `instance` counts what it has enqueued: it runs an action inline only when called on
/// the main queue with nothing of its own still enqueued, and enqueues otherwise, so
/// actions never re-enter and run in FIFO order. `asyncInstance` always enqueues.
///
/// On Linux the main queue runs only while the main thread runs `RunLoop.main` (or
/// after `dispatchMain()`); until then enqueued work waits.
public final class MainScheduler: SerialDispatchQueueScheduler {
    private let mainQueue: DispatchQueue
    private let numberEnqueued = Atomic<Int>(0)

    /// A main-queue scheduler with its own enqueue counter, so callers of other
    /// instances do not force it to enqueue (RxSwift issue #2704).
    public init() {
        mainQueue = DispatchQueue.main
        super.init(serialQueue: mainQueue)
    }

    /// The shared instance, with the shared enqueue counter.
    public static let instance = MainScheduler()

    /// A scheduler that always enqueues on the main queue, never running inline.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Traps unless the caller runs on the main queue.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !DispatchQueue.isMain {
            fatalError(errorMessage ?? "Executing on a background thread. Use `MainScheduler.instance.schedule` to run on the main queue.")
        }
    }

    /// Traps unless the caller runs on the main queue.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    /// How many actions this scheduler has enqueued that have not finished yet
    /// (including one running inline).
    public var pendingCount: Int { numberEnqueued.load(ordering: .relaxed) }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if previous == 0 && DispatchQueue.isMain {
            let disposable = action(state)
            numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        mainQueue.async {
            if !cancel.isDisposed { cancel.setDisposable(action(state)) }
            self.numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }
}
