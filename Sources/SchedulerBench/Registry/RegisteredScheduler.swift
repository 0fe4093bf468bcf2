import BenchModel
import Foundation
import RxSchedulers

/// A scheduler as the registry holds it: its name, what it promises, and how a trial gets
/// a fresh one. Built-ins and a user's schedulers are both held this way; the workloads
/// decide from these properties whether (and with which strategies) they run on it.
package struct RegisteredScheduler: Sendable {
    package var name: SchedulerName
    /// One line for `schedbench list`.
    package var summary: String
    package var contracts: SchedulerContracts
    /// Whether the `quick` suite runs it (when it does not name its schedulers).
    package var inQuickSuite = true
    /// Builds the scheduler for one trial; `strategy` is the case's strategy (the built-in
    /// dispatch-queue schedulers take their dispatch from it; a user's factory ignores it).
    package var make: @Sendable (StrategyName) -> any ImmediateSchedulerType

    /// Built-ins only: a `SerialDispatchQueueScheduler` (MainScheduler is one), on which
    /// RxSwift's observe(on:) picks per-event blocks, so `referenceGeneric` differs from
    /// `reference`.
    package var isSerialDispatch = false
    /// Built-ins only: its actions may run on the main queue, which runs only while the main
    /// thread runs its RunLoop (the CLI's does).
    package var usesMainQueue = false
    /// Built-ins only: virtual time (run to completion by the workload, on one thread).
    package var isVirtualTime = false

    /// Why `stress --scheduler` cannot hold it to its contract, or nil when it can: the
    /// contract scenario schedules from several threads and waits for actions to run in
    /// real time, which a virtual clock that only a test advances never does.
    package var stressRefusal: String? {
        isVirtualTime
            ? "'\(name.rawValue)' runs on virtual time, which moves only when a test advances it; the contract stress waits in real time for scheduled actions (test it with RxSchedulersTesting's TestScheduler instead)"
            : nil
    }
    /// Whether it runs actions on the scheduling thread itself (the trampoline), so there is
    /// no hand-off to another thread to measure a latency of.
    package var runsOnCallingThread = false
    /// Built-ins only: the dispatch modes its factory takes from the case's strategy
    /// (`StrategyName.dispatch`), the one it uses when the strategy names none first.
    /// Each is selectable under every observe(on:) strategy and periodic policy it runs
    /// (`drain+batched`: `Registry.composites(of:on:)`).
    package var dispatchModes: [StrategyName] = []
    /// Built-ins only: the workloads made for this scheduler (`trampoline.nested`, the
    /// `main.*` ones), and the strategies it offers where a workload compares several
    /// (dispatch in `schedule.throughput`, periodic policies in `periodic.catchUp`).
    package var offers: [WorkloadName: [StrategyName]] = [:]

    /// Whether its instances also schedule in time (`SchedulerType`): learned once, by
    /// building one instance, the first time a plan asks.
    package var isTimed: Bool { timedProbe.value }
    private let timedProbe: LazyProbe

    package init(
        name: SchedulerName, summary: String, contracts: SchedulerContracts,
        make: @escaping @Sendable (StrategyName) -> any ImmediateSchedulerType
    ) {
        self.name = name
        self.summary = summary
        self.contracts = contracts
        self.make = make
        timedProbe = LazyProbe { make(.none) is any SchedulerType }
    }

    /// A fresh instance for one trial of a case with `strategy`.
    package func instance(strategy: StrategyName = .none) -> any ImmediateSchedulerType { make(strategy) }

    /// `instance(strategy:)` for a workload that schedules in time; traps if the scheduler
    /// cannot (the plan offers timed workloads only to timed schedulers).
    package func timedInstance(strategy: StrategyName = .none) -> any SchedulerType {
        guard let scheduler = make(strategy) as? any SchedulerType else {
            preconditionFailure("scheduler '\(name.rawValue)' cannot schedule in time")
        }
        return scheduler
    }
}

/// A Boolean computed once, on first use, from any thread.
private final class LazyProbe: Sendable {
    private let state: Locked<Bool?>
    private let compute: @Sendable () -> Bool

    init(_ compute: @escaping @Sendable () -> Bool) {
        state = Locked(nil)
        self.compute = compute
    }

    var value: Bool {
        if let known = state.withLock({ $0 }) { return known }
        let computed = compute()
        state.withLock { $0 = computed }
        return computed
    }
}
