import Foundation

/// Periodic scheduling on a fixed grid: tick `n` is due at `start + n·period`, measured
/// with the scheduler's `now`. Overdue ticks run at once and in order (or, when
/// `dropsMissedTicks`, are skipped to the next grid point); a schedule more than
/// `PeriodicPolicy.rebaseTolerance(period:)` behind is rebased to now.
final class PeriodicFixedRate<State>: @unchecked Sendable {
    private let scheduler: SchedulerType
    private let period: TimeInterval
    private let dropsMissedTicks: Bool
    private let action: (State) -> State
    private var state: State
    private var start = Date()
    private var tick = 0

    init(scheduler: SchedulerType, period: RxTimeInterval, dropsMissedTicks: Bool, action: @escaping (State) -> State, state: State) {
        self.scheduler = scheduler
        self.period = period.seconds
        self.dropsMissedTicks = dropsMissedTicks
        self.action = action
        self.state = state
    }

    func start(after startAfter: RxTimeInterval) -> Disposable {
        start = scheduler.now.adding(startAfter)
        return scheduler.scheduleRecursive((), dueTime: startAfter) { _, recursive in
            self.runTick()
            recursive.schedule((), dueTime: self.delayToNextTick())
        }
    }

    private func runTick() {
        state = action(state)
        tick += 1
    }

    /// Time until the next tick is due, after moving the grid if it fell too far behind.
    private func delayToNextTick() -> RxTimeInterval {
        let now = scheduler.now
        var due = start.addingTimeInterval(Double(tick) * period)
        let behind = now.timeIntervalSince(due)
        if behind > PeriodicPolicy.rebaseTolerance(period: period) {
            start = now.addingTimeInterval(-Double(tick) * period)
            due = now
        } else if dropsMissedTicks && behind > 0 {
            let skipped = Int((behind / period).rounded(.up))
            tick += skipped
            due = start.addingTimeInterval(Double(tick) * period)
        }
        let delay = due.timeIntervalSince(now)
        return .nanoseconds(max(0, Int((delay * 1_000_000_000).rounded())))
    }
}
