import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `scheduler.contract`: the contract of any registered scheduler, under perturbation
/// (`schedbench stress --scheduler NAME`; without it, each iteration picks one of the
/// built-in real-time schedulers). Each iteration runs one of three parts on a fresh instance:
///
/// - **schedule**: 1–4 threads schedule 1–300 actions each; some are disposed at once
///   (from the scheduling thread, racing the action: either outcome is legal). Checked:
///   every action not disposed runs, exactly once (`lost`: none has run for 2 s of usable
///   time while some are missing; `duplicate`); with `.serial`, no two actions overlap
///   (`overlap`) and each thread's actions run in the order it scheduled them (`reorder`),
///   and an action disposed while an earlier action of the same thread still holds the
///   scheduler never runs (`after_dispose`: the earlier action waits until `dispose()` has
///   returned, so the order is certain); with `.ordered`, per-thread order.
/// - **observeOn**: one or two producers send `next`s and one `completed` through
///   `observe(on:)` (either strategy) on it. Checked: every `next` arrives once, in order,
///   never overlapping, the stop event last and alone (`lost`, `reorder`, `overlap`, `grammar`).
/// - **timed** (when its instances are `SchedulerType`s): `scheduleRelative` with 1–20 ms
///   delays never runs early, and a periodic schedule's tick k never runs before k periods
///   have passed (`early`), and none goes missing (`lost_tick`).
///   "Early" allows 0.2 ms for the clocks' granularity.
///
/// Outcomes: whether an action disposed at once still ran (legal either way).
final class SchedulerContractScenario: CataloguedStressScenario {
    static let name = StressScenarioName.schedulerContract
    static let summary =
        "any registered scheduler (--scheduler NAME): actions run exactly once unless disposed; with .serial no overlap, per-thread order, no run after an ordered dispose; observe(on:) grammar; timed ones never early or lost"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .afterDispose, .overlap, .grammar, .lostTick, .early, .hang, .crash]
    /// On `serial` (per-action dispatch by default), an action disposed behind a running
    /// one is the ordered dispose the scenario checks.

    /// The built-ins an iteration picks from when no scheduler is named: the real-time Rx schedulers.
    static let builtInTargets: [SchedulerName] = [.currentThread, .main, .serial, .concurrent, .concurrentMain, .operationQueue]

    /// How early a timed action may run before it counts as early: the clocks' granularity.
    static let earlySlackNanos: UInt64 = 200_000

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let registry = Registry.current
        let name = iteration.targetScheduler ?? random.pick(Self.builtInTargets)
        guard let target = registry.scheduler(name) else {
            iteration.violation(.crash, "no scheduler is registered as '\(name.rawValue)'")
            return
        }
        let parts = target.isTimed ? 3 : 2
        switch Int(random.next() % UInt64(parts)) {
        case 0: schedule(target, iteration, &random)
        case 1: observeOn(target, iteration, &random)
        default: timed(target, iteration, &random)
        }
    }

    // MARK: schedule

    private func schedule(_ target: RegisteredScheduler, _ iteration: StressIteration, _ random: inout StressRandom) {
        // Called from the scheduling threads, as a scheduler is (Workload: the core's types and Sendable).
        nonisolated(unsafe) let scheduler = target.instance()
        let contracts = target.contracts
        let threads = Int.random(in: 1...4, using: &random)
        let perThread = Int.random(in: 1...300, using: &random)
        let label = "\(target.name.rawValue) schedule \(threads)×\(perThread)"
        let runs = RunCounts(count: threads * perThread)
        let lastRun = Locked([Int](repeating: -1, count: threads))
        let inside = Atomic<Int>(0)
        let expected = Atomic<Int>(0)
        // An ordered dispose needs the scheduler held by an earlier action: only where actions are serial.
        let orderedDisposals = contracts.isSerial

        iteration.concurrently(threads, name: "scheduler.contract") { thread, random in
            for sequence in 0..<perThread {
                if sequence & 31 == 0 { iteration.beat() }
                let slot = thread * perThread + sequence
                if orderedDisposals && random.chance(1.0 / 32) {
                    // Hold the scheduler with an action that waits until the victim's dispose()
                    // has returned: the victim is behind it, so it must never run.
                    let held = DispatchSemaphore(value: 0)
                    let released = DispatchSemaphore(value: 0)
                    _ = scheduler.schedule(()) { _ in
                        held.signal()
                        _ = released.wait(timeout: .now() + 2)
                        return Disposables.create()
                    }
                    let victim = scheduler.schedule(slot) { slot in
                        runs.ran(slot)
                        iteration.violation(.afterDispose, "\(label): thread \(thread)'s action \(sequence) ran although its dispose() returned before the action ahead of it ended")
                        return Disposables.create()
                    }
                    victim.dispose()
                    released.signal()
                    // Wait for the holder to start, so the next actions queue behind it in order.
                    _ = held.wait(timeout: .now() + 2)
                    continue
                }
                let disposeAtOnce = random.chance(1.0 / 16)
                if !disposeAtOnce { expected.wrappingAdd(1, ordering: .relaxed) }
                let disposable = scheduler.schedule(slot) { slot in
                    if contracts.isSerial, inside.wrappingAdd(1, ordering: .acquiring).oldValue != 0 {
                        iteration.violation(.overlap, "\(label): an action ran while another was still running")
                    }
                    if contracts.keepsProducerOrder {
                        let previous = lastRun.withLock { last in
                            defer { last[thread] = sequence }
                            return last[thread]
                        }
                        if previous >= sequence {
                            iteration.violation(.reorder, "\(label): thread \(thread)'s action \(sequence) ran after its \(previous)")
                        }
                    }
                    let count = runs.ran(slot)
                    if count > 1 { iteration.violation(.duplicate, "\(label): thread \(thread)'s action \(sequence) ran \(count) times") }
                    if contracts.isSerial { inside.wrappingSubtract(1, ordering: .releasing) }
                    return Disposables.create()
                }
                if disposeAtOnce {
                    disposable.dispose()
                    runs.markDisposed(slot)
                }
                if random.chance(1.0 / 64) { sched_yield() }
            }
        }
        iteration.countOperations(threads * perThread)

        let missing = iteration.wait(quietFor: 2, progress: { runs.total }, until: { runs.undisposedRan >= expected.load(ordering: .relaxed) })
        if let missing {
            let why = missing == .stillProgressing ? "still running after \(Int(ProgressDeadline.defaultCapSeconds)) s" : "none ran for 2 s"
            iteration.violation(
                .lost, "\(label): \(runs.undisposedRan) of \(expected.load(ordering: .relaxed)) actions not disposed ran (\(why))")
        }
        let (disposedRan, disposedTotal) = runs.disposedOutcomes
        if disposedTotal > 0 {
            iteration.outcome(disposedRan > 0 ? "an action disposed at once still ran" : "actions disposed at once did not run")
        }
        // Let actions disposed at once settle before the instance goes.
        ObserveOnDisposeScenario.quiesce(scheduler, iteration)
    }

    // MARK: observeOn

    private func observeOn(_ target: RegisteredScheduler, _ iteration: StressIteration, _ random: inout StressRandom) {
        let scheduler = target.instance()
        let strategy = random.pick(ObserveOnStrategy.all)
        let producers = Int.random(in: 1...2, using: &random)
        let events = Int.random(in: 1...400, using: &random)
        let label = "\(target.name.rawValue) observeOn/\(strategy.name) \(producers)×\(events)"
        let checker = DeliveryChecker(producers: producers, iteration: iteration)
        let stopped = DispatchSemaphore(value: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler, strategy: strategy)
            .subscribe(checker.observer(signallingStopOn: stopped))
        let send = subject
        let sendLock = NSLock()
        iteration.concurrently(producers, name: "scheduler.contract.observeOn") { thread, random in
            for sequence in 0..<events {
                if sequence & 63 == 0 { iteration.beat() }
                // A subject's observers must not be called concurrently (the grammar): one sender at a time.
                sendLock.withLock { send.onNext(thread << 32 | sequence) }
                if random.chance(1.0 / 64) { sched_yield() }
            }
        }
        send.onCompleted()
        iteration.countOperations(producers * events)
        if let expiry = iteration.wait(stopped, quietFor: 2, progress: { checker.delivered }) {
            let why = expiry == .stillProgressing ? "still delivering after \(Int(ProgressDeadline.defaultCapSeconds)) s" : "no delivery for 2 s"
            iteration.violation(.lost, "\(label): no completed (\(why); \(checker.delivered) of \(producers * events) nexts delivered)")
        } else {
            let perProducer = checker.deliveredPerProducer
            if perProducer.contains(where: { $0 != events }) {
                iteration.violation(.lost, "\(label): completed after \(perProducer) nexts per producer of \(events)")
            }
        }
        checker.finish(label)
        if checker.stopCount > 1 { iteration.violation(.grammar, "\(label): \(checker.stopCount) stop events") }
        subscription.dispose()
        ObserveOnDisposeScenario.quiesce(scheduler, iteration)
    }

    // MARK: timed

    private func timed(_ target: RegisteredScheduler, _ iteration: StressIteration, _ random: inout StressRandom) {
        let scheduler = target.timedInstance()
        let label = target.name.rawValue
        if random.chance(0.5) {
            let count = Int.random(in: 1...20, using: &random)
            let ran = SharedCounter()
            for index in 0..<count {
                let delayMillis = Int.random(in: 1...20, using: &random)
                let scheduledAt = MonotonicClock.now()
                _ = scheduler.scheduleRelative(index, dueTime: .milliseconds(delayMillis)) { _ in
                    let waited = MonotonicClock.now() - scheduledAt
                    if waited + Self.earlySlackNanos < UInt64(delayMillis) * 1_000_000 {
                        iteration.violation(.early, "\(label): scheduleRelative(\(delayMillis) ms) ran after \(Double(waited) / 1e6) ms")
                    }
                    ran.increment()
                    return Disposables.create()
                }
            }
            iteration.countOperations(count)
            if iteration.wait(quietFor: 2, progress: { ran.load() }, until: { ran.load() == count }) != nil {
                iteration.violation(.lost, "\(label): \(ran.load()) of \(count) relative schedules ran")
            }
        } else {
            let periodMillis = Int.random(in: 2...5, using: &random)
            let ticks = Int.random(in: 3...15, using: &random)
            let period = UInt64(periodMillis) * 1_000_000
            let seen = SharedCounter()
            let start = MonotonicClock.now()
            let subscription = scheduler.schedulePeriodic(0, startAfter: .milliseconds(periodMillis), period: .milliseconds(periodMillis)) { state in
                let tick = state + 1
                let elapsed = MonotonicClock.now() - start
                if elapsed + Self.earlySlackNanos < UInt64(tick) * period {
                    iteration.violation(.early, "\(label): tick \(tick) of a \(periodMillis) ms period ran after \(Double(elapsed) / 1e6) ms")
                }
                seen.increment()
                return tick
            }
            iteration.countOperations(ticks)
            let expiry = iteration.wait(quietFor: 2, progress: { seen.load() }, until: { seen.load() >= ticks })
            subscription.dispose()
            if expiry != nil {
                iteration.violation(.lostTick, "\(label): \(seen.load()) of \(ticks) ticks of a \(periodMillis) ms period ran")
            }
        }
        ObserveOnDisposeScenario.quiesce(scheduler, iteration)
    }
}

/// How many times each action ran, and which were disposed at once.
private final class RunCounts: Sendable {
    private let counts: Locked<(runs: [Int], disposed: [Bool], total: Int, undisposed: Int)>

    init(count: Int) { counts = Locked(([Int](repeating: 0, count: count), [Bool](repeating: false, count: count), 0, 0)) }

    /// Records a run of `slot`; returns how many times it has run.
    @discardableResult
    func ran(_ slot: Int) -> Int {
        counts.withLock { state in
            state.runs[slot] += 1
            state.total += 1
            if !state.disposed[slot] && state.runs[slot] == 1 { state.undisposed += 1 }
            return state.runs[slot]
        }
    }

    /// Marks `slot` as disposed at once (after its dispose returned); a run before that counted as undisposed.
    func markDisposed(_ slot: Int) {
        counts.withLock { state in
            if state.runs[slot] > 0 { state.undisposed -= 1 }
            state.disposed[slot] = true
        }
    }

    var total: Int { counts.withLock { $0.total } }
    /// Distinct actions run that were not disposed at once.
    var undisposedRan: Int { counts.withLock { $0.undisposed } }
    /// (disposed at once that ran anyway, disposed at once).
    var disposedOutcomes: (Int, Int) {
        counts.withLock { state in
            let disposed = state.disposed.indices.filter { state.disposed[$0] }
            return (disposed.filter { state.runs[$0] > 0 }.count, disposed.count)
        }
    }
}
