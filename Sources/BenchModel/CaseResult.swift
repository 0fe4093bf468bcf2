/// The rows of one finished case, in trial order.
package struct CaseResult: Codable, Sendable {
    package var benchCase: BenchCase
    package var trials: [TrialRecord]
    /// The first few invariant violations of each trial, described, with where they were
    /// seen (`violations.csv`).
    package var violationSamples: [ViolationSample]
    /// With `RunOptions.measureOverhead`: the harness's own cost on this case.
    package var overhead: HarnessOverhead?
    /// With `measureOverhead` and `countInstructions`: instructions per event with the
    /// checkers on over off, minus 1. Exact where the counts repeat exactly.
    package var instructionOverhead: Double?
    /// For latency workloads: every timed trial's latencies in one histogram (what
    /// `latency/<case>.hgrm` prints). Comes back from `--isolate` children too.
    package var latency: LatencyRecorder?

    package init(benchCase: BenchCase, trials: [TrialRecord], violationSamples: [ViolationSample] = []) {
        self.benchCase = benchCase
        self.trials = trials
        self.violationSamples = violationSamples
    }

    /// Adds a counting trial's metrics to trial 0 (violations add up).
    package mutating func addCounting(_ record: TrialRecord) {
        guard let index = trials.firstIndex(where: { $0.trial == TrialRecord.countingTrial }) else {
            trials.append(record)
            return
        }
        trials[index].metrics.merge(record.metrics) { old, new in old + new }
    }

    /// The timed trials' values of `metric` (the allocation trial included for allocation metrics).
    package func values(_ metric: Metric) -> [Double] {
        trials.compactMap { $0.metrics[metric] }
    }

    /// Invariant violations plus leaked resources over all trials.
    package var correctnessFailures: Double {
        trials.reduce(0) { sum, record in
            sum + Metric.allCases.filter(\.isCorrectness).reduce(0) { $0 + max(0, record.metrics[$1] ?? 0) }
        }
    }
}
