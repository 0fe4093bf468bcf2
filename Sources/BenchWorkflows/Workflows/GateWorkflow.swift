import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// The gate's workflow (`schedbench gate`): run a baseline and a candidate build in
/// alternating rounds (`InterleavedRuns`), compare the rounds as pairs, write
/// `comparison.csv` and the candidate's HTML report against the baseline under the runs'
/// directory. A shard of a gate (`gate --shard K/N`) runs its rounds and writes
/// `shard.json` beside them, but compares nothing: its verdict would judge one share of the
/// cases alone, so the verdict is `merge`'s, over every shard's cases at once.
///
/// A gate that counts instructions does not decide a changed count on its rounds alone.
/// A case's count can keep one of two levels for a whole process (observe(on:) `reference`
/// on `serial`: about 7,040 or 8,460 instructions an event), and when every process of one
/// side fell on one level and every one of the other side on the other, an A/A gate called
/// the case 16.5% improved (docs/performance/journal.md, "2026-11-30 (evening)"). So the
/// cases whose instruction row the rounds would call regressed or improved are counted
/// again, each in processes of its own (`InterleavedRuns.runMore`), in
/// `confirmationRounds` more rounds: their rows are then judged on those
/// rounds only (`judgedRounds`), and a side whose counts moved by more than a third of the
/// threshold between its processes leaves the row undecided (`Comparison.repeatLimit`). A
/// change that belongs to the build counts the same in the new processes and stays
/// decided. The rounds among the other cases only choose what to count again: a case
/// counted after others carries what their threads do while it runs (a worker's timed
/// wait ending, say), which no scheduler orders. `subscribeOn.cycle` on `mainAsync` under
/// `SCHED_FIFO` beside two busy loops counted 40,289–40,364 an event in the suite's
/// rounds of four gates and 40,325–40,329 in every round counted alone
/// (docs/performance/journal.md, "2026-12-03"); judged on all ten, asked +3.1% it was left
/// undecided in one of those four.
///
/// A stable count whose rounds leave it undecided with its ratio past half the threshold
/// (`recountShare`) is recounted too. With two rounds a side the paired test has one
/// degree of freedom, so a change 0.1 points past a 3% threshold is decided only when the
/// two rounds agree to a few instructions in a trial: the trampoline asked +3.1% was left
/// undecided in 5 of 30 idle gates, where one side's two rounds differed by up to 0.021
/// instructions an event (docs/performance/journal.md, "2026-12-01"). A hand-off's count
/// moves more: a round's ratio of `subscribeOn.cycle` on `mainAsync` spreads by about
/// 0.05%, so asked +3.1% it sits two to three standard errors past the threshold at four
/// rounds, where Holm's first step over a dozen decided rows at three degrees of freedom
/// asks for more than five; it was left undecided in 3 of 3 idle gates ("2026-12-02 (late
/// morning)"). Ten rounds give the test nine degrees of freedom and halve the standard
/// error. The screen reads the rounds among the other cases, where that hand-off's ratio
/// moves by about 0.1% either way: asked +3.1% it once read +2.990% there and was left
/// undecided without a recount ("2026-12-03"), so the screen starts half the threshold
/// short of it. The recount costs two more processes a side and round, valgrind's start-up
/// each, and only for a count that changed or looks changed.
package struct GateWorkflow: Sendable {
    package var runs: InterleavedRuns
    package var policy: ComparisonPolicy
    /// The share of the plan `runs.cases` is; nil for a whole gate.
    package var shard: ShardFile?
    /// The rounds a gate that counts instructions runs again on the cases whose count it
    /// would call changed (0: none).
    package var confirmationRounds = GateWorkflow.defaultConfirmationRounds

    /// Eight rounds (ten in all, as many as the time step runs): sixteen more processes a
    /// side, so a level every process of a side kept would have to be kept by twenty.
    package static let defaultConfirmationRounds = 8

    /// The share of the threshold past which a stable, undecided count is recounted. A
    /// count the build changed by the threshold reads past it in the suite's rounds
    /// whatever the other cases' threads did (they moved that hand-off's ratio by 0.17% at
    /// most). With two rounds a side, a stable count short of half a 3% threshold is
    /// decided unchanged unless its sides' rounds cross (one side's first round high and
    /// second low, the other's the other way), which is noise of an unchanged count; so
    /// only a change near the threshold costs the recount's processes.
    static let recountShare = 0.5

    package init(runs: InterleavedRuns, policy: ComparisonPolicy, shard: ShardFile? = nil) {
        self.runs = runs
        self.policy = policy
        self.shard = shard
    }

    /// What a gate found.
    package struct Outcome: Sendable {
        /// Every round ran; false when the gate was cancelled (the finished rounds are kept,
        /// and nothing was compared).
        package var finished: Bool
        /// The paired comparison of the candidate against the baseline; nil when not finished,
        /// and for a shard.
        package var comparison: ComparisonOutcome?
        /// The HTML report's file, or why it could not be written (which leaves the
        /// comparison's decision as it is). Nil when not finished, and for a shard.
        package var report: Result<URL, BenchError>?
    }

    /// Runs the rounds, then compares and reports (a shard only runs its rounds). A build
    /// that fails to run, or results it wrote that cannot be read, throw `BenchError`.
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Outcome {
        let recounts = runs.options.countInstructions && policy.metrics.contains(.instructionsPerEvent) ? confirmationRounds : 0
        if var shard {
            shard.confirmationRounds = recounts > 0 ? recounts : nil
            try ResultsFiles.prepare(runs.directory)
            try shard.write(to: runs.directory)
        } else {
            ShardFile.remove(in: runs.directory)
        }
        let unfinished = Outcome(finished: false, comparison: nil, report: nil)
        guard var done = try runs.execute(observer: observer, cancellation: cancellation) else { return unfinished }
        let changed = recounts > 0 ? Self.changedCounts(done.results, of: runs.cases, policy: policy) : []
        if !changed.isEmpty {
            observer.benchEvent(.recountStarted(cases: changed, rounds: recounts))
            guard try runs.runMore(recounts, of: changed, after: &done, observer: observer, cancellation: cancellation) else { return unfinished }
        }
        guard shard == nil else { return Outcome(finished: true, comparison: nil, report: nil) }
        let (comparison, report) = try Self.compare(in: runs.directory, policy: policy, rounds: recounts > 0 ? runs.rounds : nil)
        return Outcome(finished: true, comparison: comparison, report: report)
    }

    /// The cases of `cases` (in that order) whose `instructions_per_event` row a paired
    /// comparison of `results` under `policy` calls regressed or improved, or leaves
    /// inconclusive with its ratio past `recountShare` of the threshold and its counts
    /// stable (no `unstableRepeat`). In a shard the family is the shard's own cases,
    /// smaller than the merged gate's, so it recounts at least the cases the merge would
    /// call changed.
    static func changedCounts(_ results: [GateSide: [CaseResult]], of cases: [BenchCase], policy: ComparisonPolicy) -> [BenchCase] {
        let comparison = Comparison(
            base: results[.baseline] ?? [], new: results[.candidate] ?? [], thresholds: policy.thresholds, metrics: policy.metrics,
            method: policy.method, paired: true)
        let changed = Set(comparison.rows.filter { $0.metric == .instructionsPerEvent && Self.looksChanged($0) }.map(\.benchCase))
        return cases.filter(changed.contains)
    }

    /// `cases` with each case that holds rounds past `rounds` (one counted again) left with
    /// only those rounds; the other cases as they are.
    static func judgedRounds(_ cases: [CaseResult], rounds: Int) -> [CaseResult] {
        cases.map { result in
            guard result.trials.contains(where: { $0.trial > rounds }) else { return result }
            var recounted = result
            recounted.trials = result.trials.filter { $0.trial > rounds }
            return recounted
        }
    }

    /// Whether a row is decided changed, or undecided on stable counts whose ratio lies
    /// past `recountShare` of its threshold either way.
    static func looksChanged(_ row: Comparison.Row) -> Bool {
        switch row.verdict {
        case .regressed, .improved:
            return true
        case .unchanged:
            return false
        case .inconclusive:
            return row.unstableRepeat == nil && row.ratioPast(recountShare)
        }
    }

    /// Compares the `candidate/` rounds in `directory` with the `baseline/` ones, paired by
    /// round, writing `comparison.csv` and the candidate's report against the baseline
    /// there (`gate`, and `merge` of a gate's shards). With `rounds` (a gate that recounts),
    /// a case that holds more rounds than that is judged on its rounds past them. A report
    /// that cannot be written is returned as such and leaves the comparison's decision as
    /// it is.
    package static func compare(
        in directory: URL, policy: ComparisonPolicy, rounds: Int?
    ) throws -> (comparison: ComparisonOutcome, report: Result<URL, BenchError>) {
        let baseline = directory.appendingPathComponent(GateSide.baseline.rawValue).path
        let candidate = directory.appendingPathComponent(GateSide.candidate.rawValue).path
        let comparison = try ComparisonWorkflow.compare(
            base: baseline, new: candidate, paired: true, policy: policy,
            writingCSVTo: directory.appendingPathComponent(ComparisonFile.name), recountedAfter: rounds)
        let report: Result<URL, BenchError>
        do {
            report = .success(
                try RunReport.write(
                    run: ReportInput.read(candidate), base: ReportInput.read(baseline), to: directory.appendingPathComponent("report"),
                    options: RunReport.Options(title: "schedbench gate: candidate against baseline", thresholds: policy.thresholds)))
        } catch {
            report = .failure(BenchError(error))
        }
        return (comparison, report)
    }
}
