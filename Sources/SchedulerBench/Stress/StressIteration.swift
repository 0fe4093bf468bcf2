import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// A stress scenario: checks one property of the core on every iteration.
protocol StressScenario: AnyObject {
    /// Runs iteration `iteration.index`: makes every random decision from
    /// `iteration.random` (or the streams it hands out), records what it sees, and returns
    /// once the iteration's threads and work have finished (or a bounded wait gave up).
    func run(_ iteration: StressIteration)
}

/// A scenario of the catalogue (`StressScenarios`): it says what it checks,
/// and the runner makes a fresh one for each run.
protocol CataloguedStressScenario: StressScenario, SendableMetatype {
    /// Its stable name (`schedbench stress --scenario`, `stress.csv`).
    static var name: StressScenarioName { get }
    /// One line for `schedbench list`: the property it checks.
    static var summary: String { get }
    /// The violation kinds it checks; `stress.csv` has a row for each, zeros included.
    static var checks: [ViolationKind] { get }

    init()
}

/// One iteration of a scenario: its decisions, and what it saw. Scenario threads record
/// violations and outcomes concurrently; the runner reads them once the iteration returns.
final class StressIteration: @unchecked Sendable {
    let scenario: StressScenarioName
    let index: Int
    let seed: UInt64
    /// The scheduler `scheduler.contract` stresses (`--scheduler`), if one was named.
    let targetScheduler: SchedulerName?
    /// The driving thread's decisions (stream 0).
    var random: StressRandom
    /// Counted operations (the scenario's unit).
    let operations = Atomic<Int>(0)
    private let heartbeat: Heartbeat
    private let lock = NSLock()
    private var violations: [StressViolation] = []
    private var outcomes: [String: (OutcomeClass, Int)] = [:]

    init(scenario: StressScenarioName, index: Int, seed: UInt64, heartbeat: Heartbeat, targetScheduler: SchedulerName? = nil) {
        self.scenario = scenario
        self.targetScheduler = targetScheduler
        self.index = index
        self.seed = seed
        self.heartbeat = heartbeat
        random = StressRandom(seed: seed, scenario: scenario, iteration: index, stream: 0)
    }

    /// The decision stream of scenario thread `stream` (1 and up; 0 is `random`'s).
    func stream(_ stream: Int) -> StressRandom {
        StressRandom(seed: seed, scenario: scenario, iteration: index, stream: stream)
    }

    /// Records a broken guarantee.
    func violation(_ kind: ViolationKind, _ detail: String) {
        lock.withLock { violations.append(StressViolation(kind: kind, iteration: index, detail: detail)) }
    }

    /// Counts an observed outcome of a race; a forbidden one is also a violation of `kind`.
    func outcome(_ name: String, forbidden kind: ViolationKind? = nil) {
        lock.withLock {
            let outcomeClass: OutcomeClass = kind == nil ? .acceptable : .forbidden
            outcomes[name, default: (outcomeClass, 0)].1 += 1
        }
        if let kind { violation(kind, "forbidden outcome: \(name)") }
    }

    func countOperations(_ count: Int) {
        operations.wrappingAdd(count, ordering: .relaxed)
    }

    /// Tells the watchdog the scenario is making progress.
    func beat() { heartbeat.beat() }

    var hasViolations: Bool { lock.withLock { !violations.isEmpty } }

    /// What the iteration saw.
    func collected() -> (violations: [StressViolation], outcomes: [String: (OutcomeClass, Int)]) {
        lock.withLock { (violations, outcomes) }
    }

    /// Runs `body(thread, decisions)` on `count` new threads started together, and waits
    /// for all of them with no time limit: a thread that never returns is a hang, which the
    /// watchdog reports. Thread `n` draws from stream `n + 1`.
    func concurrently(_ count: Int, name: String, _ body: @escaping @Sendable (Int, inout StressRandom) -> Void) {
        let streams = (0..<count).map { stream($0 + 1) }
        let threads: ProducerThreads
        do {
            threads = try ProducerThreads(count: count, name: "stress.\(name)") { index in
                Perturbation.nameThisThread("\(self.scenario.rawValue) \(name) \(index)")
                var random = streams[index]
                body(index, &random)
            }
        } catch {
            violation(.crash, "could not start the scenario's threads: \(error)")
            return
        }
        _ = threads.start()
        _ = threads.join(timeout: .infinity)
    }

    /// Waits until `condition` holds, up to `seconds` of time the process could use,
    /// beating meanwhile (a bounded wait is not a hang: the scenario reports what a timeout
    /// means). Returns whether it held.
    func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        var deadline = StallCompensatedDeadline(seconds: seconds, now: MonotonicClock.now(), starved: Starvation.lost)
        var pause: UInt32 = 20
        while !condition() {
            if deadline.hasPassed(now: MonotonicClock.now(), afterPause: UInt64(pause) * 1_000, starved: Starvation.lost) { return condition() }
            heartbeat.beat()
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        return true
    }

    /// Waits for `semaphore` while `progress` keeps moving: until nothing has moved for
    /// `quietSeconds` of time the process could use (`.noProgress`), or the hard cap
    /// (`.stillProgressing`); nil when the semaphore was signalled. Beats meanwhile.
    func wait(
        _ semaphore: DispatchSemaphore, quietFor quietSeconds: Double, capSeconds: Double = ProgressDeadline.defaultCapSeconds,
        progress: () -> Int
    ) -> ProgressDeadline.Expiry? {
        var deadline = ProgressDeadline(quietSeconds: quietSeconds, capSeconds: capSeconds, progress: progress(), now: MonotonicClock.now(), starved: Starvation.lost)
        while semaphore.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if let expiry = deadline.expiry(now: MonotonicClock.now(), afterPause: 50_000_000, progress: progress(), starved: Starvation.lost) { return expiry }
            heartbeat.beat()
        }
        return nil
    }

    /// Waits until `condition` holds while `progress` keeps moving, as
    /// `wait(_:quietFor:capSeconds:progress:)` does; nil when it held.
    func wait(
        quietFor quietSeconds: Double, capSeconds: Double = ProgressDeadline.defaultCapSeconds, progress: () -> Int,
        until condition: () -> Bool
    ) -> ProgressDeadline.Expiry? {
        var deadline = ProgressDeadline(quietSeconds: quietSeconds, capSeconds: capSeconds, progress: progress(), now: MonotonicClock.now(), starved: Starvation.lost)
        var pause: UInt32 = 20
        while !condition() {
            if let expiry = deadline.expiry(now: MonotonicClock.now(), afterPause: UInt64(pause) * 1_000, progress: progress(), starved: Starvation.lost) {
                return condition() ? nil : expiry
            }
            heartbeat.beat()
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        return nil
    }

    /// Waits for `semaphore` up to `seconds` of time the process could use, beating meanwhile.
    func wait(_ semaphore: DispatchSemaphore, upTo seconds: Double) -> Bool {
        var deadline = StallCompensatedDeadline(seconds: seconds, now: MonotonicClock.now(), starved: Starvation.lost)
        while semaphore.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if deadline.hasPassed(now: MonotonicClock.now(), afterPause: 50_000_000, starved: Starvation.lost) { return false }
            heartbeat.beat()
        }
        return true
    }

    /// Waits for `Resources.total` to return to `baseline` (objects are released by
    /// dispatch's threads a little after the work ends); records a leak if it stops short.
    /// The wait goes on while the total keeps moving (objects still being released on a
    /// loaded machine), up to the hard cap.
    func expectResources(back baseline: Int32, upTo seconds: Double = 2, _ what: @autoclosure () -> String) {
        switch wait(quietFor: seconds, progress: { Int(Resources.total) }, until: { Resources.total == baseline }) {
        case nil: break
        case .noProgress?:
            violation(.leak, "Resources.total \(Resources.total), baseline \(baseline), unchanged for \(seconds) s after \(what())")
        case .stillProgressing?:
            violation(
                .leak,
                "Resources.total \(Resources.total), baseline \(baseline), still moving \(Int(ProgressDeadline.defaultCapSeconds)) s after \(what())")
        }
    }
}

/// The time of the scenario's last sign of progress, for the watchdog.
final class Heartbeat: Sendable {
    private let last = Atomic<UInt64>(MonotonicClock.now())

    func beat() { last.store(MonotonicClock.now(), ordering: .relaxed) }

    /// When the last beat was (`MonotonicClock` nanoseconds).
    var lastBeat: UInt64 { last.load(ordering: .relaxed) }
}
