/// The metrics of one trial of one case: one `results.csv` row per metric.
/// Trial numbers start at 1; trial 0 holds the untimed counting trials (allocations,
/// instructions).
public struct TrialRecord: Codable, Sendable, Equatable {
    public var benchCase: BenchCase
    public var trial: Int
    public var metrics: [Metric: Double]

    public init(benchCase: BenchCase, trial: Int, metrics: [Metric: Double]) {
        self.benchCase = benchCase
        self.trial = trial
        self.metrics = metrics
    }

    /// The trial number of the counting trials.
    public static let countingTrial = 0
}
