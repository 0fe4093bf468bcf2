import BenchModel
import Foundation
import Synchronization

/// A slower build on demand, for validating `gate` and `compare --history` on real runs: a
/// candidate that does more work per event than its baseline, on the same machine with its
/// real drift, so their error rates can be measured where users meet them.
///
/// It exists only in builds with the `ValidationSlowdown` package trait
/// (`swift build -c release --traits ValidationSlowdown --product schedbench`). A normal
/// build compiles none of it: the hooks below are empty `#if` blocks, so the timed paths of
/// the builds users run keep their instructions (the release pass of `scripts/test.sh`
/// checks the trait's symbols are absent from a normal build).
///
/// In such a build, `SCHEDBENCH_SLOWDOWN=PREFIX:PERCENT[,PREFIX:PERCENT…]` slows every case
/// whose `benchmarkName` starts with a `PREFIX` (`*` for every case): before its warmup the
/// case runs three untimed trials without the slowdown and takes their median nanoseconds
/// per event; from then on each event spins for `PERCENT`% of that once on each thread
/// that handles it (`perEvent()`: where a hand-off's item is made and, on another thread,
/// where it is delivered; where a scheduled action runs). A pipeline's pace is set by its
/// slowest stage and every stage gets the same spin, so a case that runs on one thread, or
/// whose stages overlap on separate cores, slows by about `PERCENT`%; where its threads
/// share a core it can be more. The realized slowdown is what a validation measures and
/// reports (`scripts/validate-gate.py` does, from the gates' own estimates). Without the
/// variable nothing is slowed.
package enum ValidationSlowdown {
    #if ValidationSlowdown
    /// One `PREFIX:PERCENT` of the variable.
    package struct Request: Equatable, Sendable {
        package var casePrefix: String
        package var fraction: Double

        package func matches(_ benchCase: BenchCase) -> Bool {
            casePrefix == "*" || benchCase.benchmarkName.hasPrefix(casePrefix)
        }
    }

    /// The requests in `text`; none for no text. Bad text is an error naming the problem.
    package static func parse(_ text: String?) throws -> [Request] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { part in
            guard let colon = part.lastIndex(of: ":"), colon != part.startIndex,
                let percent = Double(part[part.index(after: colon)...]), percent > 0, percent <= 1_000
            else {
                throw BenchError.caseCannotRun(
                    "SCHEDBENCH_SLOWDOWN=\(text): expected CASE-PREFIX:PERCENT[,…] (a prefix of a case's name or *, PERCENT above 0 and at most 1000), "
                        + "for example trampoline.nested/currentThread:10")
            }
            return Request(casePrefix: String(part[..<colon]), fraction: percent / 100)
        }
    }

    /// Spin turns each event of the case running now adds, at each hook; 0 when the case is
    /// not slowed. Set by the runner before a case, read by the case's threads while it runs
    /// (the trial's threads are started after it is set).
    nonisolated(unsafe) private static var turnsPerEvent = 0

    /// Sets the slowdown for `benchCase`: turns worth its requested share of
    /// `nanosecondsPerEvent()` (measured with the slowdown off) when a request of `text`
    /// (by default the environment's `SCHEDBENCH_SLOWDOWN`) names the case, none otherwise.
    /// Returns the nanoseconds per event it adds at each hook.
    @discardableResult
    package static func prepare(
        for benchCase: BenchCase, requests text: String? = ProcessInfo.processInfo.environment["SCHEDBENCH_SLOWDOWN"],
        nanosecondsPerEvent: () throws -> Double?
    ) throws -> Double {
        turnsPerEvent = 0
        guard let request = try parse(text).first(where: { $0.matches(benchCase) }) else { return 0 }
        guard let cost = try nanosecondsPerEvent(), cost > 0 else { return 0 }
        turnsPerEvent = max(1, Int((cost * request.fraction / nanosecondsPerTurn).rounded()))
        return Double(turnsPerEvent) * nanosecondsPerTurn
    }

    /// Turns the case running now spins per event at each hook (for tests).
    package static var currentTurns: Int { turnsPerEvent }

    /// Nanoseconds one turn of `spin` takes here: the fastest of five 2-million-turn runs.
    package static let nanosecondsPerTurn: Double = {
        let turns = 2_000_000
        var best = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            spin(turns)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(turns))
        }
        return max(best, 0.01)
    }()

    /// Busy work the optimizer cannot remove: a recurrence whose result is kept.
    @inline(never)
    package static func spin(_ turns: Int) {
        var value = spinResult.load(ordering: .relaxed)
        for turn in 0..<turns { value = value &* 31 &+ turn }
        spinResult.store(value, ordering: .relaxed)
    }

    private static let spinResult = Atomic<Int>(0)
    #endif

    /// The hook, where a case makes an event and where it delivers one: spins for the
    /// slowed case in a build with the trait; empty otherwise.
    @inline(__always)
    package static func perEvent() {
        #if ValidationSlowdown
        let turns = turnsPerEvent
        if turns > 0 { spin(turns) }
        #endif
    }
}
