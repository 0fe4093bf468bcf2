import BenchChild
import BenchModel
import Foundation

/// `schedbench gate`: runs the same cases on a baseline build and a candidate build of
/// schedbench in alternating rounds, so slow drift of the machine (thermal, noisy
/// neighbours, a 2× move between sessions) lands on both sides alike. The order alternates
/// (A B, B A, A B, …) so neither side always runs second.
///
/// A round runs `trialsPerRound` timed trials of each case in one process per side and
/// keeps their geometric mean per metric as the round's value (`summarize`): a trial of a
/// few milliseconds is now and then disturbed by an interrupt or a page fault, and the
/// first trials of a process differ from its later ones, so one trial a round carries that
/// into the pair. Measured on this repository's 18 validation cases, gates of one and of
/// five trials a round interleaved (docs/performance, "CPU time per event, five trials a
/// round, and the gate's rates again"): five narrowed the median case's per-round spread
/// to 0.70 (hand-offs to a queue up to 3×), for 1.6 minutes a gate instead of 1.2; fourteen
/// rounds instead of ten would cost as much and, by the square root of the rounds (not
/// measured), narrow an interval only to 0.85. Each round also runs the
/// counting trials (allocations, and instructions when asked), so counted metrics get one
/// value per round too and are judged paired like the timed ones. Each side's rounds are
/// merged, round r becoming trial r, and written after every round to `baseline/` and
/// `candidate/` under `directory`, so an interrupted gate keeps the rounds it finished.
///
/// Both builds are driven through the child protocol (`ChildRequest`): each round is one
/// `_child` process per side, given the cases and options as data.
package struct InterleavedRuns: Sendable {
    package typealias Side = GateSide

    package var executables: [Side: String]
    package var cases: [BenchCase]
    /// How each round measures; `trials` is ignored (`trialsPerRound` says it).
    package var options: RunOptions
    package var rounds: Int
    /// Timed trials of each case per round and side, summarized as one value per metric.
    package var trialsPerRound: Int
    package var directory: URL
    /// Seconds one side's round may take before its child is killed and the gate fails.
    /// Nil: `RunOptions.childTimeout` for the first round, then ten times the slowest first
    /// round (at least a minute), so a hung build is caught without waiting the full
    /// default on every round.
    package var childTimeout: TimeInterval?
    /// Runs a round's two sides at the same time, each counting instructions in half the
    /// processors' worth of children (`RunOptions.countingChildren`), each kept to one of
    /// that side's processors (`RunOptions.countingProcessors`), instead of one after
    /// the other with all of them. For a gate that compares only instruction counts: a
    /// count does not depend on what else the machine runs, and each side counts its cases
    /// in one order, whereas a cut into one child per processor left one child with most of
    /// the costly cases and the other processor idle. The timed trials of such a round run
    /// beside the other side's and are not fit to compare.
    package var sidesTogether = false
    /// Processors the counting children of both sides share when `sidesTogether`: those
    /// this process may run on.
    package var processors = Processors.allowed()
    /// Each side's counting children when `sidesTogether`: half the processors, at most 4.
    package var countingChildrenEachSide: Int { max(1, min(processors.count, 8) / 2) }

    /// Whether a gate of runs with `options`, comparing `metrics`, can run a round's sides
    /// together: it counts instructions and compares nothing else.
    package static func sidesCanRunTogether(_ options: RunOptions, comparing metrics: [Metric]) -> Bool {
        options.countInstructions && metrics == [.instructionsPerEvent]
    }

    package init(
        baseline: String, candidate: String, cases: [BenchCase], options: RunOptions, rounds: Int, directory: URL,
        trialsPerRound: Int = InterleavedRuns.defaultTrialsPerRound, childTimeout: TimeInterval? = nil
    ) {
        executables = [.baseline: baseline, .candidate: candidate]
        self.cases = cases
        self.options = options
        self.rounds = rounds
        self.trialsPerRound = trialsPerRound
        self.directory = directory
        self.childTimeout = childTimeout
    }

    /// `gate --trials-per-round`'s default.
    package static let defaultTrialsPerRound = 5

    /// The timeout of a round's child, given how long the first round's children took.
    static func timeout(explicit: TimeInterval?, default fallback: TimeInterval, firstRoundSeconds: [TimeInterval]) -> TimeInterval {
        if let explicit { return explicit }
        guard let slowest = firstRoundSeconds.max() else { return fallback }
        return max(60, 10 * slowest)
    }

    package func resultsDirectory(_ side: Side) -> URL { directory.appendingPathComponent(side.rawValue) }

    /// The rounds run so far: each side's results, every round merged (round r is trial r),
    /// as written under `directory`.
    package struct Rounds: Sendable {
        package var results: [Side: [CaseResult]] = [:]
        /// The last round's number.
        package var last = 0
        /// How long each side's first round took (the later rounds' timeouts follow it).
        var firstRoundSeconds: [TimeInterval] = []
    }

    /// Runs the rounds. A case with invariant violations is a result, kept for `compare` to
    /// judge; a build that fails to run, or a case it could not run, is an error. Returns
    /// the rounds, or nil when `cancellation` stopped them early (the rounds finished are
    /// written).
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Rounds? {
        var done = Rounds()
        return try run(rounds, of: cases, after: &done, total: rounds, observer: observer, cancellation: cancellation) ? done : nil
    }

    /// Runs `more` rounds of `cases` (a subset of `self.cases`), each case alone: a side's
    /// round runs one child for each case, one after the other, so no case is measured
    /// after another's threads. The rounds are numbered on from `done.last` and added to
    /// `done` and to the results written: those cases then hold more rounds than the
    /// others. Returns false when `cancellation` stopped it early.
    ///
    /// Counted after other cases in one process, a hand-off's count moves with what they
    /// left running: `subscribeOn.cycle` on `mainAsync`, recounted with three other cases,
    /// read 0.16–0.25% apart over eight rounds under `SCHED_FIFO`; alone, 0.01%
    /// (docs/performance/journal.md, 2026-12-03, sixth). Each case's children cost a
    /// child's start-up (under valgrind about 5 s) in every round and side.
    package func runMore(
        _ more: Int, of cases: [BenchCase], after done: inout Rounds, observer: any BenchObserver = SilentObserver(),
        cancellation: CancellationToken = CancellationToken()
    ) throws -> Bool {
        try run(more, of: cases, eachAlone: true, after: &done, total: done.last + more, observer: observer, cancellation: cancellation)
    }

    /// The requests of a side's round: every case in one, or (`eachAlone`) one a case
    /// (always at least one request).
    static func requestedCases(_ cases: [BenchCase], eachAlone: Bool) -> [[BenchCase]] {
        eachAlone && !cases.isEmpty ? cases.map { [$0] } : [cases]
    }

    private func run(
        _ count: Int, of cases: [BenchCase], eachAlone: Bool = false, after done: inout Rounds, total: Int, observer: any BenchObserver,
        cancellation: CancellationToken
    ) throws -> Bool {
        guard count > 0 else { return true }
        for round in (done.last + 1)...(done.last + count) {
            if cancellation.isCancelled { return false }
            let order: [Side] = round % 2 == 1 ? [.baseline, .candidate] : [.candidate, .baseline]
            let timeout = Self.timeout(
                explicit: childTimeout, default: options.childTimeout, firstRoundSeconds: round == 1 ? [] : done.firstRoundSeconds)
            let together = sidesTogether ? [order] : order.map { [$0] }
            for sides in together {
                let replies = Locked([Side: Result<(ChildReply, String, TimeInterval), Error>]())
                DispatchQueue.concurrentPerform(iterations: sides.count) { index in
                    let side = sides[index]
                    observer.benchEvent(.roundStarted(round: round, of: total, side: side))
                    let child = ChildProcess(binary: executables[side]!)
                    let started = Date()
                    let progress = FilteringObserver(observer) {
                        // Progress passes; the gate reports results itself.
                        switch $0 {
                        case .caseStarted, .trialStarted, .caseFailed: return true
                        case .caseFinished, .roundStarted, .recountStarted, .scenarioStarted, .stressIteration, .scenarioFinished:
                            return false
                        }
                    }
                    let reply = Result {
                        var answers: [ChildReply] = []
                        for batch in Self.requestedCases(cases, eachAlone: eachAlone) {
                            answers.append(
                                try child.run(
                                    ChildRequest(job: .cases, cases: batch, options: roundOptions(position: index)), observer: progress,
                                    timeout: timeout))
                        }
                        var joined = answers[0]
                        joined.outcomes = answers.flatMap(\.outcomes)
                        return joined
                    }
                    replies.withLock { $0[side] = reply.map { ($0, child.name, Date().timeIntervalSince(started)) } }
                }
                for side in sides {
                    let (reply, name, seconds) = try replies.withLock { $0[side]! }.get()
                    if round == 1 { done.firstRoundSeconds.append(seconds) }
                    try record(reply, from: name, side: side, round: round, into: &done.results)
                }
            }
            done.last = round
        }
        return true
    }

    /// The options of a round's child for the side at `position` in the round's order (0:
    /// the side that goes first). With `sidesTogether`, each side counts on processors of
    /// its own, the first side on the first `countingChildrenEachSide` processors, the other
    /// on the next: the two builds swap processors from one round to the next, as they swap
    /// who goes first.
    func roundOptions(position: Int) -> RunOptions {
        var options = options
        options.trials = trialsPerRound
        options.isolate = false
        if sidesTogether, !processors.isEmpty {
            let each = countingChildrenEachSide
            options.countingChildren = each
            options.countingProcessors = (0..<each).map { processors[(position * each + $0) % processors.count] }
        }
        return options
    }

    /// Adds a side's round to `merged` and rewrites that side's results under `directory`;
    /// a case its child could not run fails the gate.
    private func record(_ reply: ChildReply, from name: String, side: Side, round: Int, into merged: inout [Side: [CaseResult]]) throws {
        var results: [CaseResult] = []
        for outcome in reply.outcomes {
            if let error = outcome.error {
                throw BenchError.childFailed(executable: name, problem: "round \(round): \(outcome.benchCase): \(error)")
            }
            if let result = outcome.result { results.append(result) }
        }
        merged[side] = Self.merge(merged[side] ?? [], results, round: round)
        let url = resultsDirectory(side)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw BenchError.unwritable(path: url.path, problem: FileProblem.describe(error, at: url))
        }
        try ResultsFiles.write(merged[side]!, provenance: reply.provenance, to: url)
    }

    /// Adds one round's cases: its timed trials, summarized (`summarize`), and its counting
    /// trial (trial 0) become one trial, numbered `round` (their metrics are disjoint;
    /// invariant violations add up). Its violations' descriptions keep their trial and
    /// take the round; its latencies join the case's (`run --processes` writes them).
    package static func merge(_ merged: [CaseResult], _ round: [CaseResult], round number: Int) -> [CaseResult] {
        var merged = merged
        for result in round {
            var combined = TrialRecord(benchCase: result.benchCase, trial: number, metrics: [:])
            let timed = result.trials.filter { $0.trial != TrialRecord.countingTrial }
            let counting = result.trials.filter { $0.trial == TrialRecord.countingTrial }
            for metrics in [summarize(timed.map(\.metrics))] + counting.map(\.metrics) {
                combined.metrics.merge(metrics) { $1 + $0 }
            }
            let records = result.trials.isEmpty ? [] : [combined]
            let samples = result.violationSamples.map { sample in
                var sample = sample
                sample.round = number
                return sample
            }
            if let index = merged.firstIndex(where: { $0.benchCase == result.benchCase }) {
                merged[index].trials += records
                merged[index].violationSamples += samples
                if let latency = result.latency {
                    if merged[index].latency == nil { merged[index].latency = latency } else { merged[index].latency!.add(latency) }
                }
            } else {
                var first = CaseResult(benchCase: result.benchCase, trials: records, violationSamples: samples)
                first.latency = result.latency
                merged.append(first)
            }
        }
        return merged
    }

    /// One value per metric for a round's timed trials: the geometric mean (trials are
    /// close to log-normal, and the comparison works on logarithms), or the arithmetic mean
    /// when a trial measured 0 or less (counts such as context switches); correctness counts
    /// (invariant violations, leaked resources) add up, so a violation in any trial stays one.
    static func summarize(_ trials: [[Metric: Double]]) -> [Metric: Double] {
        guard trials.count > 1 else { return trials.first ?? [:] }
        var values: [Metric: [Double]] = [:]
        for trial in trials {
            for (metric, value) in trial { values[metric, default: []].append(value) }
        }
        var summary: [Metric: Double] = [:]
        for (metric, all) in values {
            if metric.isCorrectness {
                summary[metric] = all.reduce(0, +)
            } else if all.count == 1 {
                summary[metric] = all[0]
            } else if all.allSatisfy({ $0 > 0 && $0.isFinite }) {
                summary[metric] = exp(all.map(log).reduce(0, +) / Double(all.count))
            } else {
                summary[metric] = all.reduce(0, +) / Double(all.count)
            }
        }
        return summary
    }
}
