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
package struct GateWorkflow: Sendable {
    package var runs: InterleavedRuns
    package var policy: ComparisonPolicy
    /// The share of the plan `runs.cases` is; nil for a whole gate.
    package var shard: ShardFile?

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
        if let shard {
            try ResultsFiles.prepare(runs.directory)
            try shard.write(to: runs.directory)
        } else {
            ShardFile.remove(in: runs.directory)
        }
        guard try runs.execute(observer: observer, cancellation: cancellation) else {
            return Outcome(finished: false, comparison: nil, report: nil)
        }
        guard shard == nil else { return Outcome(finished: true, comparison: nil, report: nil) }
        let (comparison, report) = try Self.compare(in: runs.directory, policy: policy)
        return Outcome(finished: true, comparison: comparison, report: report)
    }

    /// Compares the `candidate/` rounds in `directory` with the `baseline/` ones, paired by
    /// round, writing `comparison.csv` and the candidate's report against the baseline
    /// there (`gate`, and `merge` of a gate's shards). A report that cannot be written is
    /// returned as such and leaves the comparison's decision as it is.
    package static func compare(
        in directory: URL, policy: ComparisonPolicy
    ) throws -> (comparison: ComparisonOutcome, report: Result<URL, BenchError>) {
        let baseline = directory.appendingPathComponent(GateSide.baseline.rawValue).path
        let candidate = directory.appendingPathComponent(GateSide.candidate.rawValue).path
        let comparison = try ComparisonWorkflow.compare(
            base: baseline, new: candidate, paired: true, policy: policy,
            writingCSVTo: directory.appendingPathComponent(ComparisonFile.name))
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
