import BenchModel
import Foundation
import RxSchedulers

/// `periodic.catchUp`: `interval(1 / rate_hz)` for N periods under a periodic policy, with
/// a subscriber that stalls for 3 periods on every 10th tick. Reports ticks due against
/// ticks delivered, each tick's lateness against its due time (start + (n+1)·period), and
/// the backlog: at each delivery, the ticks fallen due by then that have not been delivered
/// (`tick_backlog_peak`, the most at once). Under `coalesce` merged ticks are never paid,
/// so its backlog only grows. Checks ticks arrive in order, once each (values 0, 1, 2, …).
///
/// `rxRecursive` (RxSwift's own state machine) runs on every real-time scheduler; the
/// other policies on `main`, `serial` and `concurrent`, where they differ.
struct PeriodicCatchUp: Workload {
    let name = WorkloadName.periodicCatchUp
    let summary = "interval(1/rate_hz) for N ticks, every 10th tick stalls 3 periods; ticks due vs delivered, lateness, backlog"
    let unsupportedReason =
        "needs a scheduler that schedules in real time (currentThread and operationQueue have no time, as in RxSwift; virtual time does not stall)"
    let axes: Set<Axis> = [.rate]
    let defaultEvents = 2_000
    let defaultRateHz = 1_000
    static let stallEvery = 10
    static let stallPeriods: UInt64 = 3

    init() {}

    /// Every registered scheduler that schedules in time in real time, with the periodic
    /// policies it offers (RxSwift's `rxRecursive`, which works over any scheduler, when it
    /// has none of its own).
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isTimed && !scheduler.isVirtualTime ? scheduler.offers[name] ?? [.rxRecursive] : []
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        guard benchCase.rateHz > 0 else { throw BenchError.caseCannotRun("periodic.catchUp needs a rate above 0 Hz") }
        guard let policy = benchCase.strategy.periodicPolicy else {
            throw BenchError.caseCannotRun("'\(benchCase.strategy.rawValue)' is not a periodic policy")
        }
        let scheduler = try Registry.current.requireScheduler(benchCase.scheduler).timedInstance()
        let period = 1_000_000_000 / UInt64(benchCase.rateHz)
        let ticks = benchCase.events
        let state = Locked(TickState())
        let checker = checking ? SequenceChecker(expectedCounts: [ticks], report: invariants) : nil

        let start = MonotonicClock.now()
        let subscription = Observable<Int>.interval(.nanoseconds(Int(period)), scheduler: scheduler, policy: policy)
            .subscribe(onNext: { tick in
                // The handler holds the lock while it runs, its stall included.
                state.withLock { state in
                    guard tick < ticks else { return }
                    let now = MonotonicClock.now()
                    state.lateness.record(intended: start + UInt64(tick + 1) * period, completed: now)
                    checker?.observe(producer: 0, sequence: tick)
                    state.delivered += 1
                    let due = min(Int((now - start) / period), ticks)
                    state.backlogPeak = max(state.backlogPeak, due - state.delivered)
                    if tick % Self.stallEvery == Self.stallEvery - 1 {
                        usleep(UInt32(Self.stallPeriods * period / 1_000))
                    }
                }
            })
        // Half a period of grace after the last tick is due.
        PacedWait.wait(until: start + UInt64(ticks) * period + period / 2)
        subscription.dispose()
        let end = MonotonicClock.now()
        // A tick already running finishes before the tallies are read.
        let tallies = state.withLock { $0 }
        // No `checker.finish()`: ticks a policy drops are the measurement, not a violation.
        return TrialOutcome(
            elapsedNanos: end - start,
            operations: tallies.delivered,
            metrics: [
                .ticksExpected: Double(ticks),
                .ticksDelivered: Double(tallies.delivered),
                .tickLatenessP99: Double(tallies.lateness.value(atPercentile: 99)),
                .tickBacklogPeak: Double(tallies.backlogPeak),
            ]
        )
    }
}

/// The subscriber's tallies (kept `Locked`; the tick handler holds the lock while it runs).
struct TickState {
    var delivered = 0
    /// The most ticks due and not yet delivered, seen at a delivery.
    var backlogPeak = 0
    var lateness = LatencyRecorder()
}
