import BenchModel
import Foundation
import RxSchedulers

/// `periodic.stall`: `interval` under random stalls, every policy × scheduler.
///
/// Each iteration runs `interval(2 ms)` for 60–100 ms with a policy and a scheduler; for
/// the first part the observer stalls at random (4–12 ms sleeps, at least three of them
/// when it stalls at all), then it is quiet so any backlog can drain. One iteration in
/// forty stalls once for 1.1 s instead, past `fixedRate`'s rebase tolerance. Checked:
/// - values come out 0, 1, 2, … (`lost`, `duplicate`, `reorder`);
/// - no tick runs before it is due: delivery `k` not before `(k + 1)` periods after the
///   subscription (`extra_tick`) — for `coalesce` this is "never two ticks for one period";
/// - `catchUp`, and `fixedRate` without the long stall: once quiet, the ticks delivered
///   catch up with the periods elapsed, to within 3 (`lost_tick`). Not `rxRecursive`,
///   which drifts by design: each tick is scheduled a period after the previous one ran,
///   so every tick's timer lateness adds up (18 to 36 ticks behind in this scenario's
///   runs under perturbation), and a serial queue's stall holds up the counting too;
/// - `fixedRate` after the 1.1 s stall rebases rather than replaying the backlog (no more
///   than a period's worth of ticks plus 3 in the 20 ms after it; `extra_tick`);
/// - `Resources.total` back to its baseline after disposal (`leak`).
final class PeriodicStallScenario: CataloguedStressScenario {
    static let name = StressScenarioName.periodicStall
    static let summary =
        "interval with random stalls, every policy × scheduler: catchUp loses no tick, fixedRate keeps its grid, none early"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .lostTick, .extraTick, .leak, .hang, .crash]

    static let period = 0.002

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let policy = random.pick(PeriodicPolicy.allCases)
        let target = random.pick([StressScheduler.serial, .concurrent, .main, .mainShared])
        let runFor = Double(Int.random(in: 60...100, using: &random)) / 1000
        let longStall = random.chance(1.0 / 40)
        let stalls = longStall ? 1 : random.chance(0.7) ? Int.random(in: 3...6, using: &random) : 0
        let stallAt = (0..<stalls).map { _ in Int.random(in: 1...20, using: &random) }.sorted()
        let stallFor = (0..<stalls).map { _ in longStall ? 1.1 : Double(Int.random(in: 4...12, using: &random)) / 1000 }
        let label = "\(policy.rawValue) on \(target.rawValue)"
        let period = Self.period
        let baseline = Resources.total

        do {
            let scheduler = target.makeTimed()
            let log = TickLog()
            let start = MonotonicClock.now()
            let subscription = Observable<Int>.interval(.milliseconds(2), scheduler: scheduler, policy: policy).subscribe(onNext: { value in
                let stall = log.append(value, at: MonotonicClock.now() - start)
                if let index = stallAt.firstIndex(of: stall) {
                    Thread.sleep(forTimeInterval: stallFor[index])
                    log.stallEnded = MonotonicClock.now() - start
                }
            })
            let stallsEnd = (longStall ? 1.1 : 0) + runFor
            _ = iteration.wait(upTo: stallsEnd) { false }

            // A fixedRate schedule rebased after the long stall skips that stall's ticks by
            // design; the rebase check below covers it.
            if policy == .catchUp || (policy == .fixedRate && !longStall) {
                // Progress is the gap closing: a schedule that replays owed ticks slowly (a
                // loaded machine) gets the time it needs; one that stopped owing them does not.
                var behind = 0
                var leastBehind = Int.max
                let expiry = iteration.wait(quietFor: 0.5, progress: { leastBehind }) {
                    let due = Int((Double(MonotonicClock.now() - start) / 1e9) / period)
                    behind = due - log.count
                    leastBehind = min(leastBehind, behind)
                    return behind <= 3
                }
                if let expiry {
                    let how =
                        expiry == .noProgress
                        ? "the gap has not closed for 0.5 s" : "still closing \(Int(ProgressDeadline.defaultCapSeconds)) s after the stalls ended"
                    iteration.violation(.lostTick, "\(label): \(behind) ticks behind the periods elapsed (\(how))")
                }
            } else {
                _ = iteration.wait(upTo: 0.02) { false }
            }
            subscription.dispose()
            ObserveOnDisposeScenario.quiesce(scheduler, iteration)

            let ticks = log.snapshot()
            iteration.countOperations(ticks.count)
            for (index, tick) in ticks.enumerated() {
                if tick.value != index {
                    let kind: ViolationKind = tick.value > index ? .lost : tick.value == index - 1 ? .duplicate : .reorder
                    iteration.violation(kind, "\(label): tick \(index) carried value \(tick.value)")
                    break
                }
                let due = Double(index + 1) * period
                if Double(tick.nanoseconds) / 1e9 < due - 0.0005 {
                    iteration.violation(
                        .extraTick, "\(label): tick \(index) ran at \(Self.ms(tick.nanoseconds)) ms, before it was due at \(due * 1000) ms")
                    break
                }
            }
            if longStall && policy == .fixedRate, let ended = log.stallEnded {
                let window = ticks.filter { $0.nanoseconds >= ended && $0.nanoseconds < ended + 20_000_000 }
                iteration.outcome(
                    window.count <= 13 ? "fixedRate: rebased after a 1.1 s stall" : "fixedRate: replayed a 1.1 s backlog",
                    forbidden: window.count > 13 ? .extraTick : nil)
            }
            iteration.outcome("\(policy.rawValue): \(stalls == 0 ? "no stalls" : longStall ? "one 1.1 s stall" : "short stalls")")
        }
        iteration.expectResources(back: baseline, "\(label) was disposed")
    }

    static func ms(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1e6) }

    /// Ticks as delivered: value and time since subscription.
    private final class TickLog: @unchecked Sendable {
        private let lock = NSLock()
        private var ticks: [(value: Int, nanoseconds: UInt64)] = []
        /// When the last stall ended (written by the observer, read after disposal).
        var stallEnded: UInt64?

        /// Appends and returns the tick's index.
        func append(_ value: Int, at nanoseconds: UInt64) -> Int {
            lock.withLock {
                ticks.append((value, nanoseconds))
                return ticks.count - 1
            }
        }

        var count: Int { lock.withLock { ticks.count } }

        func snapshot() -> [(value: Int, nanoseconds: UInt64)] { lock.withLock { ticks } }
    }
}
