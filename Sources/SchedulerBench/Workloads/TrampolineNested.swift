import BenchModel
import RxSchedulers

/// `trampoline.nested`: one `scheduleRecursive` chain of N steps on CurrentThreadScheduler
/// (each step schedules the next from inside the running action, which the trampoline
/// queues instead of recursing). Checks the steps run once each, in order.
struct TrampolineNested: Workload {
    let name = WorkloadName.trampolineNested
    let summary = "N nested schedules on the CurrentThreadScheduler trampoline (scheduleRecursive chain)"
    let unsupportedReason = "the trampoline is CurrentThreadScheduler's"
    let axes: Set<Axis> = []
    let defaultEvents = 1_000_000

    init() {}

    /// The schedulers made for it (the trampoline's own).
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] { scheduler.offers[name] ?? [] }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let steps = benchCase.events
        let checker = checking ? SequenceChecker(expectedCounts: [steps], report: invariants) : nil
        let start = MonotonicClock.now()
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { step, recurse in
            checker?.observe(producer: 0, sequence: step)
            ValidationSlowdown.perEvent()  // empty in normal builds
            if step + 1 < steps { recurse(step + 1) }
        }
        let end = MonotonicClock.now()
        checker?.finish()
        return TrialOutcome(elapsedNanos: end - start, operations: steps)
    }
}
