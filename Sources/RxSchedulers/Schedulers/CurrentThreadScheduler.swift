/// The trampoline: runs the outermost action on this thread at once and queues actions
/// scheduled while it runs, running them in order after it returns and skipping those
/// disposed meanwhile. Nested scheduling therefore never grows the stack.
///
/// Per-thread state lives under a pthread key (~5 ns a read); the queue is kept and
/// reused across outermost calls. A nested schedule allocates one item (it is the
/// returned disposable); a `scheduleRecursive` step allocates nothing and, when nothing
/// else is queued, does not even go through the queue (see `TrampolineRecursion`).
public class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    /// One thread's trampoline.
    @usableFromInline
    final class Trampoline {
        @usableFromInline @exclusivity(unchecked) var isRunning = false
        @exclusivity(unchecked) var queue = RingQueue<ScheduledItemType>(capacity: 8)

        /// Queues `item`; the trampoline must be running.
        @usableFromInline
        func enqueue(_ item: ScheduledItemType) {
            precondition(isRunning, "CurrentThreadScheduler: enqueue outside a running trampoline")
            queue.enqueue(item)
        }

        /// Queues `item` unless nothing is queued, and returns `false` (queuing nothing) in
        /// that case: `item` would run next, so the caller may run it itself as soon as
        /// its running action returns. The trampoline must be running.
        @usableFromInline
        func enqueueUnlessNext(_ item: ScheduledItemType) -> Bool {
            precondition(isRunning, "CurrentThreadScheduler: enqueue outside a running trampoline")
            if queue.isEmpty { return false }
            queue.enqueue(item)
            return true
        }
    }

    private static let trampoline = ThreadLocalSlot { Trampoline() }

    /// Whether the next `schedule` on this thread runs its action at once (`true`) or
    /// queues it behind the action running now (`false`).
    public static var isScheduleRequired: Bool {
        !trampoline.value.isRunning
    }

    init() {}

    /// This thread's trampoline. Work queued on it runs on this thread only, so a
    /// recursion may keep it instead of looking it up per step.
    @usableFromInline
    static var current: Trampoline { trampoline.value }

    /// Runs `action` now when nothing runs on this thread's trampoline, otherwise
    /// queues it to run after the current action.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Self.trampoline.value
        if trampoline.isRunning {
            let item = ScheduledItem(action: action, state: state)
            trampoline.queue.enqueue(item)
            return item
        }
        trampoline.isRunning = true
        defer { trampoline.isRunning = false }
        let disposable = action(state)
        while let item = trampoline.queue.dequeue() {
            if !item.isDisposed || SeededBug.isActive(.trampolineRunsDisposed) { item.invoke() }
        }
        return disposable
    }
}
