/// The metrics of one trial of one case: one `results.csv` row per metric.
/// Trial numbers start at 1; trial 0 is the untimed allocation-counting trial.
public struct TrialRecord: Sendable, Equatable {
    public var benchCase: BenchCase
    public var trial: Int
    public var metrics: [Metric: Double]

    public init(benchCase: BenchCase, trial: Int, metrics: [Metric: Double]) {
        self.benchCase = benchCase
        self.trial = trial
        self.metrics = metrics
    }

    /// The trial number of the allocation-counting trial.
    public static let allocationTrial = 0
}

/// The rows of one finished case, in trial order.
public struct CaseResult: Sendable {
    public var benchCase: BenchCase
    public var trials: [TrialRecord]
    /// Invariant violation descriptions (the first few), for the error report.
    public var violationSamples: [String]
    /// With `RunOptions.measureOverhead`: median ns/event with the harness's checkers and
    /// collectors on, over the median with them off, minus 1 (0.02 = 2% overhead).
    public var overhead: Double?

    public init(benchCase: BenchCase, trials: [TrialRecord], violationSamples: [String] = []) {
        self.benchCase = benchCase
        self.trials = trials
        self.violationSamples = violationSamples
    }

    /// The timed trials' values of `metric` (the allocation trial included for allocation metrics).
    public func values(_ metric: Metric) -> [Double] {
        trials.compactMap { $0.metrics[metric] }
    }

    /// Invariant violations plus leaked resources over all trials.
    public var correctnessFailures: Double {
        trials.reduce(0) { sum, record in
            sum + Metric.allCases.filter(\.isCorrectness).reduce(0) { $0 + max(0, record.metrics[$1] ?? 0) }
        }
    }
}
