import BenchMeasure
import BenchModel
import Foundation

/// `schedbench gate`: runs the same cases on a baseline build and a candidate build of
/// schedbench in alternating rounds, one timed trial per case per round, so slow drift of
/// the machine (thermal, noisy neighbours, a 2× move between sessions) lands on both sides
/// alike. The order alternates (A B, B A, A B, …) so neither side always runs second.
/// Each round also runs the counting trials (allocations, and instructions when asked),
/// so counted metrics get one value per round too and are judged paired like the timed
/// ones. Each side's rounds are merged, round r becoming trial r, and written
/// after every round to `baseline/` and `candidate/` under `directory`, so an interrupted
/// gate keeps the rounds it finished.
///
/// Both builds are driven through the child protocol (`ChildRequest`): each round is one
/// `_child` process per side, given the cases and options as data.
package struct InterleavedRuns: Sendable {
    package typealias Side = GateSide

    package var executables: [Side: String]
    package var cases: [BenchCase]
    /// How each round measures; `trials` is ignored (one per round).
    package var options: RunOptions
    package var rounds: Int
    package var directory: URL
    /// Seconds one side's round may take before its child is killed and the gate fails.
    /// Nil: `RunOptions.childTimeout` for the first round, then ten times the slowest first
    /// round (at least a minute), so a hung build is caught without waiting the full
    /// default on every round.
    package var childTimeout: TimeInterval?

    package init(
        baseline: String, candidate: String, cases: [BenchCase], options: RunOptions, rounds: Int, directory: URL,
        childTimeout: TimeInterval? = nil
    ) {
        executables = [.baseline: baseline, .candidate: candidate]
        self.cases = cases
        self.options = options
        self.rounds = rounds
        self.directory = directory
        self.childTimeout = childTimeout
    }

    /// The timeout of a round's child, given how long the first round's children took.
    static func timeout(explicit: TimeInterval?, default fallback: TimeInterval, firstRoundSeconds: [TimeInterval]) -> TimeInterval {
        if let explicit { return explicit }
        guard let slowest = firstRoundSeconds.max() else { return fallback }
        return max(60, 10 * slowest)
    }

    package func resultsDirectory(_ side: Side) -> URL { directory.appendingPathComponent(side.rawValue) }

    /// Runs the rounds. A case with invariant violations is a result, kept for `compare` to
    /// judge; a build that fails to run, or a case it could not run, is an error. Returns
    /// whether every round ran (false when `cancellation` stopped it early).
    @discardableResult
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Bool {
        var merged: [Side: [CaseResult]] = [:]
        var firstRoundSeconds: [TimeInterval] = []
        for round in 1...rounds {
            if cancellation.isCancelled { return false }
            let order: [Side] = round % 2 == 1 ? [.baseline, .candidate] : [.candidate, .baseline]
            for side in order {
                observer.benchEvent(.roundStarted(round: round, of: rounds, side: side))
                var roundOptions = options
                roundOptions.trials = 1
                roundOptions.isolate = false
                let child = ChildProcess(binary: executables[side]!)
                let started = Date()
                let timeout = Self.timeout(
                    explicit: childTimeout, default: options.childTimeout,
                    firstRoundSeconds: round == 1 ? [] : firstRoundSeconds)
                let reply = try child.run(
                    ChildRequest(job: .cases, cases: cases, options: roundOptions),
                    observer: FilteringObserver(observer) {
                        // Progress passes; the gate reports results itself.
                        switch $0 {
                        case .caseStarted, .trialStarted, .caseFailed: return true
                        case .caseFinished, .roundStarted, .scenarioStarted, .stressIteration, .scenarioFinished: return false
                        }
                    },
                    timeout: timeout)
                if round == 1 { firstRoundSeconds.append(Date().timeIntervalSince(started)) }
                var results: [CaseResult] = []
                for outcome in reply.outcomes {
                    if let error = outcome.error {
                        throw BenchError.childFailed(executable: child.name, problem: "round \(round): \(outcome.benchCase): \(error)")
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
        }
        return true
    }

    /// Adds one round's cases: its timed trial and its counting trial (trial 0) become one
    /// trial, numbered `round` (their metrics are disjoint; invariant violations add up).
    static func merge(_ merged: [CaseResult], _ round: [CaseResult], round number: Int) -> [CaseResult] {
        var merged = merged
        for result in round {
            var combined = TrialRecord(benchCase: result.benchCase, trial: number, metrics: [:])
            for record in result.trials {
                combined.metrics.merge(record.metrics) { $1 + $0 }
            }
            let records = result.trials.isEmpty ? [] : [combined]
            if let index = merged.firstIndex(where: { $0.benchCase == result.benchCase }) {
                merged[index].trials += records
                merged[index].violationSamples += result.violationSamples
            } else {
                merged.append(CaseResult(benchCase: result.benchCase, trials: records, violationSamples: result.violationSamples))
            }
        }
        return merged
    }
}
