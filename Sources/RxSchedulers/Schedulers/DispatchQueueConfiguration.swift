import Dispatch

/// Scheduling on one dispatch queue, shared by the dispatch-queue schedulers.
struct DispatchQueueConfiguration {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    /// Set with `SchedulerDispatch.batched`.
    let batch: BatchedDispatch?

    init(queue: DispatchQueue, leeway: DispatchTimeInterval, dispatch: SchedulerDispatch) {
        self.queue = queue
        self.leeway = leeway
        self.batch = dispatch == .batched ? BatchedDispatch(queue: queue) : nil
    }

    var dispatch: SchedulerDispatch { batch == nil ? .perAction : .batched }

    /// One `queue.async` per action, or a batch (`BatchedDispatch`); skipped when disposed
    /// before it runs. The item is the returned disposable, one allocation for both.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = ScheduledItem(action: action, state: state)
        if let batch {
            batch.submit(item)
        } else {
            queue.async {
                if !item.isDisposed { item.invoke() }
            }
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
