import BenchChild
import BenchModel
import Foundation

extension RatioEstimate {
    /// NEW against BASE when their trials come in pairs measured back to back (a gate's
    /// rounds: round r ran the baseline's and the candidate's trial of a case one after the
    /// other): the geometric mean of the per-pair ratios NEW/BASE, with bounds from a t on
    /// the mean of the per-pair log ratios (n − 1 degrees of freedom over n pairs).
    ///
    /// Why pair: on a shared machine most of the spread between trials is drift between
    /// rounds (load arrives, the CPU's clock moves), which a round's two trials share. The
    /// per-round log ratio cancels it; Welch's two-sample test (`init(base:new:)`) keeps it
    /// in the denominator and so needs more rounds to see the same change. A round where
    /// only one side was disturbed shows as one large log ratio, which widens the interval
    /// (a verdict moves toward "inconclusive", never toward a false "regressed").
    ///
    /// Deterministic counts (allocations of a single-threaded path) repeat exactly: when
    /// every pair has the same ratio the bounds equal it, and a difference is decided as it
    /// is. With fewer than two pairs the bounds equal the point ratio (no interval; see
    /// `Comparison.Estimator.single`). Nil when no pair is given, or a value is not positive
    /// while another is (no ratio exists); all-zero pairs compare as equal.
    package init?(pairs: [(base: Double, new: Double)], confidence: Double = 0.95) {
        guard !pairs.isEmpty else { return nil }
        if pairs.allSatisfy({ $0.base == 0 && $0.new == 0 }) {
            self.init(ratio: 1, low: 1, high: 1)
            return
        }
        guard pairs.allSatisfy({ $0.base > 0 && $0.new > 0 }) else { return nil }
        let logRatios = pairs.map { Foundation.log($0.new) - Foundation.log($0.base) }
        let count = Double(logRatios.count)
        let mean = logRatios.reduce(0, +) / count
        let variance = logRatios.count < 2 ? 0 : logRatios.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1)
        let standardError = (variance / count).squareRoot()
        // Ratios that agree to the last bits are one value: rounding in log() must not
        // turn an exact repeat into a tiny, spuriously decisive interval.
        guard logRatios.count >= 2, standardError > 1e-12 else {
            let ratio = exp(mean)
            self.init(ratio: ratio, low: ratio, high: ratio)
            return
        }
        let degrees = count - 1
        let margin = StudentT.quantile(confidence, degreesOfFreedom: degrees) * standardError
        self.init(
            ratio: exp(mean), low: exp(mean - margin), high: exp(mean + margin), logStandardError: standardError,
            degreesOfFreedom: degrees)
    }
}
