import BenchModel
import Foundation
import RxSchedulers

/// The case axes a workload varies; the others stay at their neutral value (1 producer,
/// 0 payload bytes, 0 Hz: as fast as possible).
public struct WorkloadAxes: OptionSet, Sendable, Hashable {
    /// The axes as bits (`OptionSet`).
    public let rawValue: UInt8
    /// The axes whose bits `rawValue` holds.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Producer threads (`--producers`).
    public static let producers = WorkloadAxes(rawValue: 1 << 0)
    /// Heap bytes each event carries (`--payload`).
    public static let payload = WorkloadAxes(rawValue: 1 << 1)
    /// Pacing in events per second (`--rate`).
    public static let rate = WorkloadAxes(rawValue: 1 << 2)
}

/// One trial of a registered workload: the case it measures, a fresh scheduler, and the
/// checks the harness counts as `invariant_violations`.
///
/// A trial builds what it uses, times only the region it measures (`MonotonicClock`-style
/// nanoseconds, e.g. `DispatchTime.now().uptimeNanoseconds`), and tears everything down
/// before it returns, so that trials are independent and the runner's leak check
/// (`Resources.total` after the trial) holds.
public final class WorkloadTrial: Sendable {
    /// The scheduler's registered name.
    public let schedulerName: String
    /// Events (operations, ticks) this trial must complete.
    public let events: Int
    /// Producer threads (1 unless the workload has the `producers` axis).
    public let producers: Int
    /// Heap bytes each event carries (0 unless the workload has the `payload` axis).
    public let payloadBytes: Int
    /// Pacing in events per second (0: as fast as possible).
    public let rateHz: Int
    /// False when the harness measures its own overhead: skip the checks, keep the work.
    public let checking: Bool

    private let scheduler: RegisteredScheduler
    private let report: InvariantReport

    init(benchCase: BenchCase, scheduler: RegisteredScheduler, report: InvariantReport, checking: Bool) {
        schedulerName = benchCase.scheduler.rawValue
        events = benchCase.events
        producers = benchCase.producers
        payloadBytes = benchCase.payloadBytes
        rateHz = benchCase.rateHz
        self.checking = checking
        self.scheduler = scheduler
        self.report = report
    }

    /// The contracts the scheduler claims (the workload's `requires` among them).
    public var contracts: SchedulerContracts { scheduler.contracts }

    /// A fresh instance of the case's scheduler, from its registered factory.
    public func makeScheduler() -> any ImmediateSchedulerType { scheduler.instance() }

    /// Records a broken invariant (a lost, repeated or misordered event, an overlap…): the
    /// case's `invariant_violations` counts them and the first few messages are shown.
    /// Safe from any thread.
    public func violation(_ message: @autoclosure () -> String) { report.record(message()) }

    /// A checker for `counts[p]` events from each producer `p`, delivered exactly once and
    /// in order; violations go to this trial. Call `finish()` when the trial is done.
    public func sequenceChecker(expectedCounts counts: [Int]) -> SequenceChecker {
        SequenceChecker(expectedCounts: counts, report: report)
    }

    /// A detector of overlapping calls (`enter()`/`leave()` around each); overlaps go to this trial.
    public func overlapDetector() -> OverlapDetector { OverlapDetector(report: report) }

    /// `events` split over `producers` as evenly as possible (the first ones get the remainder).
    public var shares: [Int] { evenShares(of: events, over: producers) }
}

/// What a trial of a registered workload measured.
public struct TrialMeasurement: Sendable {
    /// Nanoseconds of the timed region only.
    public var elapsedNanos: UInt64
    /// Operations completed in it: the denominator of `events_per_sec` and `ns_per_event`.
    public var operations: Int

    /// A trial that completed `operations` in `elapsedNanos` nanoseconds of timed region.
    public init(elapsedNanos: UInt64, operations: Int) {
        self.elapsedNanos = elapsedNanos
        self.operations = operations
    }
}

/// A workload registered through `Registry.workload`: it runs on every registered
/// scheduler that claims its required contracts.
struct CustomWorkload: Workload {
    let name: WorkloadName
    let summary: String
    let requires: SchedulerContracts
    let declaredAxes: WorkloadAxes
    let defaultEvents: Int
    let defaultRateHz: Int
    let body: @Sendable (WorkloadTrial) throws -> TrialMeasurement

    var unsupportedReason: String {
        requires.isEmpty ? "needs an Rx scheduler" : "needs a scheduler that claims \(requires.names.joined(separator: ", "))"
    }

    var axes: Set<Axis> {
        var axes: Set<Axis> = []
        if declaredAxes.contains(.producers) { axes.insert(.producers) }
        if declaredAxes.contains(.payload) { axes.insert(.payload) }
        if declaredAxes.contains(.rate) { axes.insert(.rate) }
        return axes
    }

    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.contracts.isSuperset(of: requires) ? [.none] : []
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        let scheduler = try Registry.current.requireScheduler(benchCase.scheduler)
        let measured = try body(WorkloadTrial(benchCase: benchCase, scheduler: scheduler, report: invariants, checking: checking))
        return TrialOutcome(elapsedNanos: measured.elapsedNanos, operations: measured.operations)
    }
}
