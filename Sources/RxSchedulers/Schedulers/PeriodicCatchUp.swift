import Synchronization

/// Periodic scheduling emulated on any `SchedulerType` (RxSwift's pending-tick
/// algorithm): every period a tick is counted; the first pending tick starts a run
/// of the action, and each tick counted while the action ran is replayed once, in
/// order, straight after it.
final class PeriodicCatchUp<State>: @unchecked Sendable {
    private enum Command {
        case tick
        case dispatch
    }

    private let scheduler: SchedulerType
    private let startAfter: RxTimeInterval
    private let period: RxTimeInterval
    private let action: (State) -> State
    private var state: State
    private let pendingTicks = Atomic<Int>(0)

    init(scheduler: SchedulerType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (State) -> State, state: State) {
        self.scheduler = scheduler
        self.startAfter = startAfter
        self.period = period
        self.action = action
        self.state = state
    }

    func start() -> Disposable {
        scheduler.scheduleRecursive(Command.tick, dueTime: startAfter) { command, recursive in
            self.handle(command, recursive)
        }
    }

    private func handle(_ command: Command, _ recursive: AnyRecursiveScheduler<Command>) {
        switch command {
        case .tick:
            recursive.schedule(.tick, dueTime: period)
            stressPoint(.periodicTicked)
            if pendingTicks.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1 {
                handle(.dispatch, recursive)
            }
        case .dispatch:
            state = action(state)
            if pendingTicks.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
                recursive.schedule(.dispatch)
            }
        }
    }
}
