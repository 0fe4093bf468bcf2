import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `main.mixed`: the situation of RxSwift issue #2704. Code on the main thread schedules on
/// a MainScheduler at a steady rate (N calls at R Hz, each from its own main-queue block)
/// while P − 1 background threads keep `MainScheduler.instance` busy, as the rest of an
/// app would. A call runs inline only while its scheduler has nothing of its own enqueued,
/// so on `mainShared` (the flooded instance itself) the flood forces the calls to enqueue,
/// and on `main` (a private instance) it does not.
///
/// Reports `inline_share` (calls whose action ran before `schedule` returned),
/// `pending_peak` (the most actions the scheduler under test had enqueued, read at each
/// call) and the latency of the calls' actions from their intended time. Checks that every
/// call's action runs once, in call order.
struct MainMixed: Workload {
    let name = WorkloadName.mainMixed
    let summary =
        "main-thread calls at R Hz on the scheduler while P-1 threads flood MainScheduler.instance: inline_share, pending_peak, latency"
    let unsupportedReason = "only MainScheduler runs calls inline while nothing of its own is enqueued"
    let axes: Set<Axis> = [.producers, .rate]
    let defaultEvents = 5_000
    let defaultRateHz = 5_000
    /// The flood tops the shared instance up to this many pending actions, then waits for
    /// the main queue to drain some: busy all the time, without an unbounded backlog.
    static let floodBacklog = 2_048

    init() {}

    /// The schedulers made for it (MainScheduler's private and shared instances), with
    /// their dispatch strategies (the shared instance's is fixed: batched).
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] { scheduler.offers[name] ?? [] }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        guard let made = try Registry.current.requireScheduler(benchCase.scheduler).instance(strategy: benchCase.strategy) as? MainScheduler else {
            throw BenchError.caseCannotRun("main.mixed needs a MainScheduler, not '\(benchCase.scheduler.rawValue)'")
        }
        // Made to be called from any thread (Workload: the core's schedulers and Sendable).
        nonisolated(unsafe) let scheduler = made
        nonisolated(unsafe) let shared = MainScheduler.instance
        let events = benchCase.events
        let interval = 1e9 / Double(max(benchCase.rateHz, 1))
        let calls = MainMixedCalls(total: events, checker: checking ? SequenceChecker(expectedCounts: [events], report: invariants) : nil)
        let stopFlood = Atomic<Bool>(false)

        let flood = try ProducerThreads(count: max(benchCase.producers - 1, 0), name: "schedbench.flood") { _ in
            while !stopFlood.load(ordering: .acquiring) {
                if shared.pendingCount < Self.floodBacklog {
                    _ = shared.schedule(()) { _ in Disposables.create() }
                } else {
                    PacedWait.wait(until: MonotonicClock.now() + 20_000)
                }
            }
        }
        let caller = try ProducerThreads(count: 1, name: "schedbench.caller") { _ in
            let start = MonotonicClock.now()
            for index in 0..<events {
                let due = start + UInt64(Double(index) * interval)
                PacedWait.wait(until: due)
                DispatchQueue.main.async { calls.call(scheduler, index: index, intended: due) }
            }
        }
        _ = flood.start()
        // Let the flood fill the shared instance before the first call.
        if benchCase.producers > 1 { PacedWait.wait(until: MonotonicClock.now() + 5_000_000) }
        let start = caller.start()
        let timeout = trialTimeout(events: events)
        let completed = calls.done.wait(
            seconds: timeout, orReport: invariants, "\(events - calls.ranCount) of \(events) main-thread calls never ran")
        stopFlood.store(true, ordering: .releasing)
        _ = caller.join(timeout: timeout)
        _ = flood.join(timeout: timeout)
        // The flood's backlog drains before the next trial; then the counters are read on
        // the main queue, where they are written.
        let drainDeadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        while shared.pendingCount > 0 && MonotonicClock.now() < drainDeadline {
            PacedWait.wait(until: MonotonicClock.now() + 1_000_000)
        }
        let result = DispatchQueue.main.sync { calls.snapshot() }
        calls.checker?.finish()
        let end = completed ? result.finishedAt : MonotonicClock.now()
        return TrialOutcome(
            elapsedNanos: end - start, operations: events, latency: result.latency,
            metrics: [
                .inlineShare: Double(result.inline) / Double(max(events, 1)),
                .pendingPeak: Double(result.pendingPeak),
            ])
    }
}

/// The main-thread calls' counters, touched only on the main queue (where the calls and
/// their actions run), except `done` and `ranCount`.
final class MainMixedCalls: @unchecked Sendable {
    struct Snapshot {
        var inline = 0
        var pendingPeak = 0
        var latency = LatencyRecorder()
        var finishedAt: UInt64 = 0
    }

    let total: Int
    let checker: SequenceChecker?
    let done = DispatchSemaphore(value: 0)
    private var state = Snapshot()
    private let ran = Atomic<Int>(0)

    init(total: Int, checker: SequenceChecker?) {
        self.total = total
        self.checker = checker
    }

    var ranCount: Int { ran.load(ordering: .relaxed) }

    /// One main-thread call: reads the scheduler's backlog, schedules, and notes whether
    /// the action ran before `schedule` returned.
    func call(_ scheduler: MainScheduler, index: Int, intended: UInt64) {
        state.pendingPeak = max(state.pendingPeak, scheduler.pendingCount)
        var returned = false
        _ = scheduler.schedule(index) { index in
            if !returned { self.state.inline += 1 }
            self.checker?.observe(producer: 0, sequence: index)
            let now = MonotonicClock.now()
            self.state.latency.record(intended: intended, completed: now)
            if self.ran.wrappingAdd(1, ordering: .relaxed).newValue == self.total {
                self.state.finishedAt = now
                self.done.signal()
            }
            return Disposables.create()
        }
        returned = true
    }

    func snapshot() -> Snapshot { state }
}
