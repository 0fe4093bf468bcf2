import BenchChild
import BenchModel
import Foundation

extension RatioEstimate {
    /// NEW against a window of earlier runs of the same case (`compare --history`): the ratio
    /// of NEW's geometric mean to the window's, with bounds that count how much whole runs
    /// differ from each other, not only how trials differ within a run.
    ///
    /// Each run is reduced to one number, the mean of its trials' logarithms; the window's
    /// spread of those numbers, s (W − 1 degrees of freedom over W runs), says how far a run
    /// of unchanged code lands from the window's mean. NEW is one more run, so the standard
    /// error of log(NEW / window) is s·√(1 + 1/W), and the bounds are t-quantiles of that —
    /// a prediction interval for one run, read as a confidence interval for the change.
    ///
    /// Why not pool the window's trials and use Welch's t: runs on one machine drift by more
    /// than their trials scatter (here: `DispatchQueue.async` cost drifts 3× between
    /// processes), so pooled trials understate the noise and flag drift as regressions.
    /// A run-level spread is what a lookback z-score (conbench) uses too; unlike a z-score
    /// with a fixed cut-off, the t-quantile keeps its error rate with short windows.
    ///
    /// With one run in the window this is the two-run estimate (`init(base:new:)`). Nil when
    /// a side is empty or holds a non-positive value among positive ones (no ratio exists).
    package init?(window: [[Double]], new: [Double], confidence: Double = 0.95) {
        let runs = window.filter { !$0.isEmpty }
        guard !runs.isEmpty, !new.isEmpty else { return nil }
        if runs.count == 1 {
            self.init(base: runs[0], new: new, confidence: confidence)
            return
        }
        let everything = runs.joined() + new
        if everything.allSatisfy({ $0 == 0 }) {
            self.init(ratio: 1, low: 1, high: 1)
            return
        }
        guard everything.allSatisfy({ $0 > 0 }) else { return nil }
        func logMean(_ values: [Double]) -> Double { values.reduce(0) { $0 + Foundation.log($1) } / Double(values.count) }
        let runMeans = runs.map(logMean)
        let windowMean = runMeans.reduce(0, +) / Double(runMeans.count)
        let spread = (runMeans.reduce(0) { $0 + ($1 - windowMean) * ($1 - windowMean) } / Double(runMeans.count - 1)).squareRoot()
        let difference = logMean(new) - windowMean
        let standardError = spread * (1 + 1 / Double(runMeans.count)).squareRoot()
        guard standardError > 0 else {
            let ratio = exp(difference)
            self.init(ratio: ratio, low: ratio, high: ratio)
            return
        }
        let degrees = Double(runMeans.count - 1)
        let margin = StudentT.quantile(confidence, degreesOfFreedom: degrees) * standardError
        self.init(
            ratio: exp(difference), low: exp(difference - margin), high: exp(difference + margin), logStandardError: standardError,
            degreesOfFreedom: degrees)
    }
}

extension RatioEstimate {
    /// NEW against the range of a window of values counted once per run
    /// (`Comparison.Estimator.windowRange`): the ratio of NEW to the window's geometric
    /// mean, bounded by NEW over the window's largest value (low) and over its smallest
    /// (high). No t-quantile and no standard error: the bounds are where NEW lies among the
    /// window's runs, not a confidence interval. Nil when a value is not positive among
    /// positive ones (no ratio exists).
    package init?(windowRange window: [Double], new: Double) {
        guard let smallest = window.min(), let largest = window.max() else { return nil }
        if window.allSatisfy({ $0 == 0 }) && new == 0 {
            self.init(ratio: 1, low: 1, high: 1)
            return
        }
        guard smallest > 0, new > 0 else { return nil }
        let logMean = window.reduce(0) { $0 + Foundation.log($1) } / Double(window.count)
        self.init(ratio: new / exp(logMean), low: new / largest, high: new / smallest)
    }
}
