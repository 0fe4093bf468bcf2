import Dispatch

/// Scheduling on one dispatch queue, shared by the dispatch-queue schedulers.
@usableFromInline
struct DispatchQueueConfiguration {
    @usableFromInline let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    /// Set with `SchedulerDispatch.batched`.
    @usableFromInline let batch: BatchedDispatch?

    init(queue: DispatchQueue, leeway: DispatchTimeInterval, dispatch: SchedulerDispatch) {
        self.queue = queue
        self.leeway = leeway
        self.batch = dispatch == .batched ? BatchedDispatch(queue: queue) : nil
    }

    var dispatch: SchedulerDispatch { batch == nil ? .perAction : .batched }

    /// One `queue.async` per action, or a batch (`BatchedDispatch`, which stores the
    /// action in a queue slot and allocates nothing); skipped when disposed before it
    /// runs. Per action, the item is the returned disposable, one allocation for both.
    ///
    /// Inlinable, so that a caller that knows the state's type allocates the item with
    /// code specialized for it (unspecialized code looks the item's generic type up in the
    /// runtime's table on every call, about a third of the cost of scheduling), and so
    /// that the block captures the item's concrete class alone, which Swift passes as the
    /// block's context itself (an existential would need a context of its own, one more
    /// allocation).
    @inlinable
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let batch { return batch.schedule(state, action: action) }
        let item = ScheduledItem(action: action, state: state)
        queue.async {
            if !item.isDisposed { item.invoke() }
        }
        return item
    }

    /// A one-shot dispatch timer; disposing cancels the timer, so a cancelled item
    /// releases its closure at once rather than at its deadline.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let scheduled = TimerDisposable(timer: timer)
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        timer.setEventHandler {
            if scheduled.isDisposed { return }
            scheduled.fired(with: action(state))
        }
        timer.resume()
        return scheduled
    }

    /// A repeating dispatch timer. Ticks missed while the action runs are merged by the
    /// timer and never delivered (RxSwift's behaviour on dispatch queues).
    func scheduleCoalescingTimer<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let scheduled = TimerDisposable(timer: timer)
        var timerState = state
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        timer.setEventHandler {
            if scheduled.isDisposed { return }
            timerState = action(timerState)
        }
        timer.resume()
        return scheduled
    }
}
