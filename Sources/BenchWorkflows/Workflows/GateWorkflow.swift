import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// The gate's workflow (`schedbench gate`): run a baseline and a candidate build in
/// alternating rounds (`InterleavedRuns`), compare the rounds as pairs, write
/// `comparison.csv` and the candidate's HTML report against the baseline under the runs'
/// directory.
package struct GateWorkflow: Sendable {
    package var runs: InterleavedRuns
    package var policy: ComparisonPolicy

    package init(runs: InterleavedRuns, policy: ComparisonPolicy) {
        self.runs = runs
        self.policy = policy
    }

    /// What a gate found.
    package struct Outcome: Sendable {
        /// Every round ran; false when the gate was cancelled (the finished rounds are kept,
        /// and nothing was compared).
        package var finished: Bool
        /// The paired comparison of the candidate against the baseline; nil when not finished.
        package var comparison: ComparisonOutcome?
        /// The HTML report's file, or why it could not be written (which leaves the
        /// comparison's decision as it is). Nil when not finished.
        package var report: Result<URL, BenchError>?
    }

    /// Runs the rounds, then compares and reports. A build that fails to run, or results it
    /// wrote that cannot be read, throw `BenchError`.
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Outcome {
        guard try runs.execute(observer: observer, cancellation: cancellation) else {
            return Outcome(finished: false, comparison: nil, report: nil)
        }
        let baseline = runs.resultsDirectory(.baseline).path
        let candidate = runs.resultsDirectory(.candidate).path
        let comparison = try ComparisonWorkflow.compare(
            base: baseline, new: candidate, paired: true, policy: policy,
            writingCSVTo: runs.directory.appendingPathComponent(ComparisonFile.name))
        let report: Result<URL, BenchError>
        do {
            report = .success(
                try RunReport.write(
                    run: ReportInput.read(candidate), base: ReportInput.read(baseline), to: runs.directory.appendingPathComponent("report"),
                    options: RunReport.Options(title: "schedbench gate: candidate against baseline", thresholds: policy.thresholds)))
        } catch {
            report = .failure(BenchError(error))
        }
        return Outcome(finished: true, comparison: comparison, report: report)
    }
}
