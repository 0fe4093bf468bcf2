import BenchModel
import Foundation

/// A calibrated slowdown of one case's per-event work, for validating the gate and the
/// history verdict on real runs: a baseline against a candidate that is truly slower by a
/// known share, on the same machine, with its real drift.
///
/// Only in builds with the `ValidationSlowdown` trait
/// (`swift build -c release --traits ValidationSlowdown --product schedbench`); a normal
/// build compiles none of it, so its timed path is unchanged (the same instructions per
/// event). In such a build, `SCHEDBENCH_SLOWDOWN=PREFIX:PERCENT` slows every case whose
/// `benchmarkName` starts with `PREFIX` (for example
/// `observeOn.throughput/serial/drain/p1:10`): before its warmup the case runs one untimed,
/// unslowed calibration trial, and from then on each delivered event spins for `PERCENT`% of
/// that trial's nanoseconds per event, in the consumer (`ItemConsumer`), where a hand-off's
/// single consumer sets the pace. Without the variable nothing is slowed.
enum ValidationSlowdown {
    #if ValidationSlowdown
    struct Request: Equatable {
        var casePrefix: String
        var fraction: Double
    }

    /// The request in `text` (`PREFIX:PERCENT`, PERCENT in (0, 1000]); nil for no text.
    static func parse(_ text: String?) throws -> Request? {
        guard let text, !text.isEmpty else { return nil }
        guard let colon = text.lastIndex(of: ":"), let percent = Double(text[text.index(after: colon)...]),
            percent > 0, percent <= 1_000, colon != text.startIndex
        else {
            throw BenchError.caseCannotRun(
                "SCHEDBENCH_SLOWDOWN=\(text): expected CASE-PREFIX:PERCENT, for example observeOn.throughput/serial/drain/p1:10 (PERCENT above 0, at most 1000)"
            )
        }
        return Request(casePrefix: String(text[..<colon]), fraction: percent / 100)
    }

    /// Spin-loop turns each event of the case running now adds; 0 when it is not slowed.
    /// Set by the runner between trials, read by the consumer during them.
    nonisolated(unsafe) static var turnsPerEvent = 0

    /// Sets the slowdown for `benchCase`: turns worth `fraction` of `nanosecondsPerEvent()`
    /// (measured with the slowdown off) when `request` (by default the environment's
    /// `SCHEDBENCH_SLOWDOWN`) asks for this case, 0 otherwise.
    static func prepare(
        for benchCase: BenchCase, request text: String? = ProcessInfo.processInfo.environment["SCHEDBENCH_SLOWDOWN"],
        nanosecondsPerEvent: () throws -> Double?
    ) throws {
        turnsPerEvent = 0
        guard let request = try parse(text), benchCase.benchmarkName.hasPrefix(request.casePrefix) else { return }
        guard let cost = try nanosecondsPerEvent(), cost > 0 else { return }
        turnsPerEvent = max(1, Int((cost * request.fraction / nanosecondsPerTurn).rounded()))
    }

    /// Nanoseconds one turn of `spin` takes here, measured once per process over 20 ms.
    static let nanosecondsPerTurn: Double = {
        let turns = 2_000_000
        var best = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            spin(turns)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(turns))
        }
        return max(best, 0.01)
    }()

    /// Busy work the optimizer cannot remove: a recurrence through a global.
    @inline(never)
    static func spin(_ turns: Int) {
        var value = spinSink
        for turn in 0..<turns { value = value &* 31 &+ turn }
        spinSink = value
    }

    nonisolated(unsafe) private static var spinSink = 0

    /// The per-event slowdown; called by the consumer for every delivered event.
    @inline(__always)
    static func perEvent() {
        if turnsPerEvent > 0 { spin(turnsPerEvent) }
    }
    #endif
}
