import Foundation

/// What periodic scheduling does with ticks that fall due while the action is still
/// running (a stalled subscriber) or while the scheduler is busy.
public enum PeriodicPolicy: String, CaseIterable, Sendable {
    /// Count every tick that falls due and replay each missed one once, in order, as
    /// soon as possible (RxSwift's pending-tick algorithm). On dispatch schedulers the
    /// ticks are counted by a timer on a private queue, so a stall on the scheduler's
    /// own queue does not stop the counting. The default on every scheduler.
    case catchUp
    /// Merge missed ticks: a repeating dispatch timer on dispatch schedulers (what
    /// RxSwift does there), and "skip to the next period boundary" elsewhere. Missed
    /// ticks are never delivered.
    case coalesce
    /// Tick `n` is due at `start + n·period`: overdue ticks run at once, in order; if the
    /// schedule falls more than `rebaseTolerance(period:)` behind (a clock jump or a long
    /// suspension), it is rebased to now instead of replaying the backlog.
    case fixedRate
    /// RxSwift's `SchedulePeriodicRecursive` state machine on every scheduler, dispatch
    /// schedulers included (where RxSwift itself uses a repeating timer): each tick is a
    /// recursive relative schedule on the scheduler itself that reschedules itself one
    /// period after it ran, counts one pending tick, and starts a dispatch if none is
    /// running; a dispatch runs the action once per pending tick. So the counting shares
    /// the scheduler with the action: on a serial queue a stall delays the next tick
    /// (the schedule drifts, nothing is owed), while on a concurrent scheduler ticks keep
    /// being counted and every one is replayed, in order. `catchUp` is this algorithm
    /// wherever the scheduler has no dispatch queue.
    case rxRecursive

    /// The policy used when none is given.
    public static let `default` = PeriodicPolicy.catchUp

    /// How far behind a `fixedRate` schedule may fall before it is rebased, in seconds:
    /// the larger of one second and ten periods.
    public static func rebaseTolerance(period: TimeInterval) -> TimeInterval {
        max(1, 10 * period)
    }
}

extension SchedulerType {
    /// `schedulePeriodic` with an explicit policy for missed ticks.
    public func schedulePeriodic<StateType>(
        _ state: StateType,
        startAfter: RxTimeInterval,
        period: RxTimeInterval,
        policy: PeriodicPolicy,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let dispatch = (self as? DispatchPeriodicScheduling)?.dispatchConfiguration
        switch policy {
        case .catchUp:
            if let dispatch {
                return DispatchPeriodicCatchUp(queue: dispatch.queue, leeway: dispatch.leeway, action: action, state: state)
                    .start(after: startAfter, period: period)
            }
            return PeriodicCatchUp(scheduler: self, startAfter: startAfter, period: period, action: action, state: state).start()
        case .coalesce:
            if let dispatch {
                return dispatch.scheduleCoalescingTimer(state, startAfter: startAfter, period: period, action: action)
            }
            return PeriodicFixedRate(scheduler: self, period: period, dropsMissedTicks: true, action: action, state: state).start(after: startAfter)
        case .fixedRate:
            return PeriodicFixedRate(scheduler: self, period: period, dropsMissedTicks: false, action: action, state: state).start(after: startAfter)
        case .rxRecursive:
            return PeriodicCatchUp(scheduler: self, startAfter: startAfter, period: period, action: action, state: state).start()
        }
    }
}

/// Schedulers on a dispatch queue: `catchUp` counts ticks with a timer on a private queue
/// and `coalesce` is a native repeating timer (RxSwift's behaviour there).
protocol DispatchPeriodicScheduling {
    var dispatchConfiguration: DispatchQueueConfiguration { get }
}
