/// The metrics of one trial of one case: one `results.csv` row per metric.
/// Trial numbers start at 1; trial 0 holds the untimed counting trials (allocations,
/// instructions).
package struct TrialRecord: Codable, Sendable, Equatable {
    package var benchCase: BenchCase
    package var trial: Int
    package var metrics: [Metric: Double]

    package init(benchCase: BenchCase, trial: Int, metrics: [Metric: Double]) {
        self.benchCase = benchCase
        self.trial = trial
        self.metrics = metrics
    }

    /// The trial number of the counting trials.
    package static let countingTrial = 0
}
