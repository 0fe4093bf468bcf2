import RxSchedulers

/// `trampoline.nested`: one `scheduleRecursive` chain of N steps on CurrentThreadScheduler
/// (each step schedules the next from inside the running action, which the trampoline
/// queues instead of recursing). Checks the steps run once each, in order.
public struct TrampolineNested: Workload {
    public let name = WorkloadName.trampolineNested
    public let summary = "N nested schedules on the CurrentThreadScheduler trampoline (scheduleRecursive chain)"
    public let schedulers: [SchedulerName] = [.currentThread]
    public let unsupportedReason = "the trampoline is CurrentThreadScheduler's"
    public let axes: Set<Axis> = []
    public let defaultEvents = 1_000_000

    public init() {}

    public func strategies(on scheduler: SchedulerName) -> [StrategyName] { [.none] }

    public func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let steps = benchCase.events
        let checker = checking ? SequenceChecker(expectedCounts: [steps], report: invariants) : nil
        let start = MonotonicClock.now()
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { step, recurse in
            checker?.observe(producer: 0, sequence: step)
            if step + 1 < steps { recurse(step + 1) }
        }
        let end = MonotonicClock.now()
        checker?.finish()
        return TrialOutcome(elapsedNanos: end - start, operations: steps)
    }
}
