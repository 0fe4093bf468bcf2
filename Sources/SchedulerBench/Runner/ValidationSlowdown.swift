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
/// whose `benchmarkName` starts with a `PREFIX` (`*` for every case): each event spins once
/// on each thread that handles it (`perEvent()`: where a hand-off's item is made and, on
/// another thread, where it is delivered; where a scheduled action runs), and the spin is
/// sized, before the case's warmup, by untimed trials of the case itself (`prepare`): a
/// first guess from its cost without the spin and the spin's cost measured alone, then
/// corrected once by what the spin turned out to add inside the case, measured as the
/// median ratio of trials with and without it, alternating. Inside a case the spin does
/// not cost what it costs alone: it overlaps with the event's own work, and a pipeline
/// whose stages share a core pays it more than once (asked 10%, the first guess alone
/// realized +8.5% of the trampoline case over eight idle gates, and +13–17% of CPU time
/// beside two busy loops). The realized slowdown is what a validation measures and
/// reports (`scripts/validate-gate.py` does, from the gates' own estimates).
///
/// `PREFIX:spin=TURNS` asks instead for a fixed spin of `TURNS` turns per event at each
/// hook, with no sizing trials: every process then does the same extra work, so what it
/// realizes moves between gates only with the machine, not with each process's sizing
/// (the share sized in each process realized +7.4% to +12.0% over six idle gates asked
/// 10%). `scripts/validate-gate.py --calibrate` finds the turns that realize a share in
/// the gate's own paired estimate.
///
/// `PREFIX:countSpin=TURNS` slows only what instruction counts see: each instruction-counting
/// trial of the case is followed by one spin of `TURNS` × its events turns (`TURNS` may be a
/// fraction), counted into the trial's dump (`countedWork`); timed trials are untouched.
/// The spin runs once the trial's threads have settled: spun inside the trial, right after
/// its events, it let threads still winding down run in its time slices, and asked 1% of
/// observe(on:) `currentThread`/`reference`'s count it added 2.5%. A count is the marginal
/// cost between a trial of a tenth of the events and one of half of them, so the spin adds
/// `TURNS` turns' instructions to each event, with no fixed part: the per-event spin's call
/// and locked operation alone add 15 instructions an event, +13% of the trampoline's
/// count, whatever is asked. `scripts/validate-gate.py --instructions` sizes `TURNS` from
/// the case's own count and what one turn counts, to ask a case for a share of its count.
/// Without the variable nothing is slowed.
package enum ValidationSlowdown {
    #if ValidationSlowdown
    /// One `PREFIX:PERCENT`, `PREFIX:spin=TURNS` or `PREFIX:countSpin=TURNS` of the variable.
    package struct Request: Equatable, Sendable {
        /// How much slower: a share of the case's cost, sized in the process, or a fixed spin.
        package enum Size: Equatable, Sendable {
            /// This share of the case's cost per event (0.10 for 10%), sized by `prepare`.
            case share(Double)
            /// This many spin turns per event at each hook, whatever the case costs.
            case turns(Int)
            /// This many spin turns per event, spun in one block after each
            /// instruction-counting trial, once its threads have settled, and counted into it
            /// (`countedWork`).
            case countedTurns(Double)
        }
        package var casePrefix: String
        package var size: Size

        package func matches(_ benchCase: BenchCase) -> Bool {
            casePrefix == "*" || benchCase.benchmarkName.hasPrefix(casePrefix)
        }
    }

    /// The largest share a request may ask, in percent.
    static let maximumPercent = 1_000.0
    /// The most turns a fixed spin (`spin=`) may ask per event.
    static let maximumTurns = 100_000_000
    /// The most turns a counted spin (`countSpin=`) may ask per event: a turn counts about
    /// 1.4 instructions, so 140,000 instructions an event, twice the costliest count of the
    /// `instructions` suite (`subscribeOn.cycle` on `operationQueue`, about 69,600).
    static let maximumCountedTurns = 100_000.0

    /// The requests in `text`; none for no text. Bad text is an error naming the problem.
    package static func parse(_ text: String?) throws -> [Request] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { part in
            let problem = BenchError.caseCannotRun(
                "SCHEDBENCH_SLOWDOWN=\(text): expected CASE-PREFIX:PERCENT, CASE-PREFIX:spin=TURNS or CASE-PREFIX:countSpin=TURNS[,…] "
                    + "(a prefix of a case's name or *, PERCENT above 0 and at most \(Int(maximumPercent)), "
                    + "spin's TURNS a whole number from 0 to \(maximumTurns), "
                    + "countSpin's TURNS a number above 0 and at most \(Int(maximumCountedTurns))), for example trampoline.nested/currentThread:10")
            guard let colon = part.lastIndex(of: ":"), colon != part.startIndex else { throw problem }
            let prefix = String(part[..<colon])
            let size = part[part.index(after: colon)...]
            if size.hasPrefix("countSpin=") {
                guard let turns = Double(size.dropFirst("countSpin=".count)), turns > 0, turns <= maximumCountedTurns else { throw problem }
                return Request(casePrefix: prefix, size: .countedTurns(turns))
            }
            if size.hasPrefix("spin=") {
                guard let turns = Int(size.dropFirst("spin=".count)), turns >= 0, turns <= maximumTurns else { throw problem }
                return Request(casePrefix: prefix, size: .turns(turns))
            }
            guard let percent = Double(size), percent > 0, percent <= maximumPercent else { throw problem }
            return Request(casePrefix: prefix, size: .share(percent / 100))
        }
    }

    /// Spin turns each event of the case running now adds, at each hook; -1 when the case is
    /// not slowed. Set by the runner before a case, read by the case's threads while it runs
    /// (the trial's threads are started after it is set).
    nonisolated(unsafe) private static var turnsPerEvent = -1

    /// Spin turns per event the case running now adds to each instruction-counting trial
    /// (`countedWork`); 0 when none. Set by the runner before a case, read on the thread that
    /// ran the trial.
    nonisolated(unsafe) private static var countedTurnsPerEvent = 0.0

    /// Alternating pairs of untimed trials (without the spin, with it) that measure what
    /// the spin adds inside the case.
    package static var calibrationPairs: Int { 5 }

    /// Sets the slowdown for `benchCase` when a request of `text` (by default the
    /// environment's `SCHEDBENCH_SLOWDOWN`) names it, none otherwise, and returns the
    /// nanoseconds per event the spin is estimated to add (0 when none). A fixed spin
    /// (`spin=TURNS`) is set as asked, with no trials; its estimate is what the turns cost
    /// alone. A counted spin (`countSpin=TURNS`) is set as asked, with no trials, and
    /// returns 0: it adds no time.
    ///
    /// `nanosecondsPerEvent` runs one untimed trial of the case with the spin as it is set
    /// at the moment of the call and returns its cost per event (`nil` if it has none). The
    /// spin is sized in two steps: its requested share of the median of
    /// `calibrationPairs` trials without it, divided by what a turn costs alone
    /// (`spinCost`); then the median ratio of `calibrationPairs` alternating pairs (without,
    /// with) gives what the spin added inside the case, and the turns are sized again with
    /// the spin's cost scaled by how much more or less the case paid for it than the spin
    /// costs alone (that factor kept within 0.25–4: a guard against a noisy pair). Pairs,
    /// not two separate medians, so that the machine's drift during the calibration falls
    /// on both sides of each ratio.
    @discardableResult
    package static func prepare(
        for benchCase: BenchCase, requests text: String? = ProcessInfo.processInfo.environment["SCHEDBENCH_SLOWDOWN"],
        nanosecondsPerEvent: () throws -> Double?
    ) throws -> Double {
        turnsPerEvent = -1
        countedTurnsPerEvent = 0
        guard let request = try parse(text).first(where: { $0.matches(benchCase) }) else { return 0 }
        let fraction: Double
        switch request.size {
        case .turns(let turns):
            turnsPerEvent = turns
            return spinCost.call + Double(turns) * spinCost.perTurn
        case .countedTurns(let turns):
            countedTurnsPerEvent = turns
            return 0
        case .share(let share):
            fraction = share
        }
        var unslowed: [Double] = []
        for _ in 0..<calibrationPairs {
            if let cost = try nanosecondsPerEvent(), cost > 0 { unslowed.append(cost) }
        }
        guard let cost = Statistics.median(unslowed) else { return 0 }
        let target = cost * fraction
        let guess = max(0, Int(((target - spinCost.call) / spinCost.perTurn).rounded()))
        guard guess > 0 else {
            turnsPerEvent = 0
            return spinCost.call
        }
        var ratios: [Double] = []
        for _ in 0..<calibrationPairs {
            turnsPerEvent = -1
            let without = try nanosecondsPerEvent()
            turnsPerEvent = guess
            let with = try nanosecondsPerEvent()
            if let without, let with, without > 0, with > 0 { ratios.append(with / without) }
        }
        guard let ratio = Statistics.median(ratios), ratio > 1 else {
            turnsPerEvent = guess
            return spinCost.call + Double(guess) * spinCost.perTurn
        }
        // What the case paid per nanosecond of spin as measured alone, taken to hold for the
        // spin's fixed part and its turns alike.
        let isolated = spinCost.call + Double(guess) * spinCost.perTurn
        let inCase = min(max(cost * (ratio - 1) / isolated, 0.25), 4)
        turnsPerEvent = max(0, Int(((target / inCase - spinCost.call) / spinCost.perTurn).rounded()))
        return inCase * (spinCost.call + Double(turnsPerEvent) * spinCost.perTurn)
    }

    /// Turns the case running now spins per event at each hook, -1 when it is not slowed
    /// (for tests).
    package static var currentTurns: Int { turnsPerEvent }

    /// Turns per event the case running now adds to each instruction-counting trial, 0 when
    /// none (for tests).
    package static var currentCountedTurns: Double { countedTurnsPerEvent }

    /// The turns counted into a counting trial of `events` events: `countedTurnsPerEvent` ×
    /// `events`, rounded up.
    package static func countedTurns(events: Int) -> Int {
        countedTurnsPerEvent > 0 ? Int((countedTurnsPerEvent * Double(events)).rounded(.up)) : 0
    }

    /// What a `spin` costs here: nanoseconds per call with no turns, and per turn; the
    /// fastest of five measurements of 100,000 calls each.
    package static let spinCost: (call: Double, perTurn: Double) = {
        func nanosecondsPerCall(turns: Int) -> Double {
            var best = Double.infinity
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<100_000 { spin(turns) }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 100_000)
            }
            return best
        }
        let call = nanosecondsPerCall(turns: 0)
        let perTurn = max((nanosecondsPerCall(turns: 200) - call) / 200, 0.01)
        return (call, perTurn)
    }()

    /// Busy work that costs its time where it is called: a dependent chain of
    /// multiply-adds ending in one locked read-modify-write that consumes it (a full barrier
    /// on x86: later loads and stores wait for it, so the chain cannot hide under the
    /// event's other work). With no barrier, the processor overlapped the chain and a
    /// slowdown asked as 10% realized 2–6%; with a second locked operation before the chain,
    /// the spin's fixed cost alone slowed the 70 ns trampoline case by about 14% whatever
    /// was asked. The location is on this call's stack, so threads spinning at once share
    /// no cache line.
    @inline(never)
    package static func spin(_ turns: Int) {
        let local = Atomic<Int>(turns)
        var value = local.load(ordering: .relaxed)
        for turn in 0..<turns { value = value &* 31 &+ turn }
        // An atomic read-modify-write is never removed, even on a local that does not escape.
        local.wrappingAdd(value, ordering: .sequentiallyConsistent)
    }
    #endif

    /// Work to count into an instruction-counting trial once its threads have settled
    /// (`InstructionCounter.instrument`'s `afterSettling`): for a case asked
    /// `countSpin=TURNS` in a build with the trait, a spin of `countedTurns(events:)` turns
    /// for the trial's operations; `nil` otherwise.
    package static var countedWork: ((TrialOutcome) -> Void)? {
        #if ValidationSlowdown
        guard countedTurnsPerEvent > 0 else { return nil }
        return { outcome in spin(countedTurns(events: outcome.operations)) }
        #else
        return nil
        #endif
    }

    /// The hook, where a case makes an event and where it delivers one: spins for the
    /// slowed case in a build with the trait; empty otherwise.
    @inline(__always)
    package static func perEvent() {
        #if ValidationSlowdown
        let turns = turnsPerEvent
        if turns >= 0 { spin(turns) }
        #endif
    }
}
