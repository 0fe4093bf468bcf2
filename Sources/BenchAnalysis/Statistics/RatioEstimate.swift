import BenchChild
import BenchModel
import Foundation

/// How much NEW differs from BASE for one metric: the ratio NEW/BASE of the geometric means
/// of the trials, with one-sided confidence bounds from Welch's t on the logarithms.
///
/// Why this estimator: run-to-run noise in benchmarks is multiplicative, so trials are close
/// to log-normal and a change is a ratio; Welch's interval allows the two runs different
/// noise; and for near-normal noise no interval is narrower at 10 trials (on synthetic
/// pairs, the exact Hodges–Lehmann interval, the distribution-free alternative, was wider
/// and caught fewer real slowdowns). An outlier widens the interval, which moves a verdict
/// toward "inconclusive" rather than toward a false "regressed".
///
/// `low` and `high` are each a one-sided bound at `confidence` (together a two-sided
/// interval at 2·confidence − 1). With fewer than two trials on a side (counting metrics,
/// recorded once per run) the bounds equal the point ratio.
package struct RatioEstimate: Sendable, Equatable {
    package var ratio: Double
    package var low: Double
    package var high: Double
    /// The standard error of log(ratio); 0 when the bounds equal the ratio.
    package var logStandardError: Double
    /// Welch–Satterthwaite degrees of freedom of the t behind the bounds.
    package var degreesOfFreedom: Double

    package init(ratio: Double, low: Double, high: Double, logStandardError: Double = 0, degreesOfFreedom: Double = .infinity) {
        self.ratio = ratio
        self.low = low
        self.high = high
        self.logStandardError = logStandardError
        self.degreesOfFreedom = degreesOfFreedom
    }

    /// The one-sided p-value of "the ratio is at most `limit`": small when the trials show
    /// the ratio above it. With no standard error (single trials), 0 when the ratio is above
    /// `limit` and 1 otherwise. For a metric where higher is better, pass 1/limit and read
    /// the ratio BASE/NEW by calling this on `inverted`.
    package func pValue(ratioAtMost limit: Double) -> Double {
        let distance = log(ratio) - log(limit)
        guard logStandardError > 0 else { return distance > 0 ? 0 : 1 }
        return 1 - StudentT.cdf(distance / logStandardError, degreesOfFreedom: degreesOfFreedom)
    }

    /// The one-sided p-value of "the ratio is at least `limit`": small when the trials show
    /// the ratio below it (an improvement past `limit`, for a cost). With no standard error,
    /// 0 when the ratio is below `limit` and 1 otherwise.
    package func pValue(ratioAtLeast limit: Double) -> Double {
        let distance = log(limit) - log(ratio)
        guard logStandardError > 0 else { return distance > 0 ? 0 : 1 }
        return 1 - StudentT.cdf(distance / logStandardError, degreesOfFreedom: degreesOfFreedom)
    }

    /// BASE/NEW instead of NEW/BASE: the same evidence, read the other way.
    package var inverted: RatioEstimate {
        RatioEstimate(ratio: 1 / ratio, low: 1 / high, high: 1 / low, logStandardError: logStandardError, degreesOfFreedom: degreesOfFreedom)
    }

    /// How far above `limit` the ratio must be for trials this noisy to show it, one-sided
    /// at `confidence`, in `power` of runs: limit · exp((t_confidence + t_power) · standard error).
    /// Nil without a standard error (nothing to say about noise).
    package func detectableRatio(above limit: Double, confidence: Double, power: Double = 0.8) -> Double? {
        guard logStandardError > 0 else { return nil }
        let t = StudentT.quantile(confidence, degreesOfFreedom: degreesOfFreedom) + StudentT.quantile(power, degreesOfFreedom: degreesOfFreedom)
        return limit * exp(t * logStandardError)
    }

    /// Nil when either side is empty or holds a non-positive value (no ratio exists); two
    /// all-zero sides compare as equal.
    package init?(base: [Double], new: [Double], confidence: Double = 0.95) {
        guard !base.isEmpty, !new.isEmpty else { return nil }
        if base.allSatisfy({ $0 == 0 }) && new.allSatisfy({ $0 == 0 }) {
            self.init(ratio: 1, low: 1, high: 1)
            return
        }
        guard base.allSatisfy({ $0 > 0 }), new.allSatisfy({ $0 > 0 }) else { return nil }
        let logBase = base.map(Foundation.log)
        let logNew = new.map(Foundation.log)
        let difference = Self.mean(logNew) - Self.mean(logBase)
        let varianceBase = Self.variance(logBase) / Double(base.count)
        let varianceNew = Self.variance(logNew) / Double(new.count)
        let standardError = (varianceBase + varianceNew).squareRoot()
        guard base.count >= 2, new.count >= 2, standardError > 0 else {
            let ratio = exp(difference)
            self.init(ratio: ratio, low: ratio, high: ratio)
            return
        }
        // Welch–Satterthwaite degrees of freedom.
        let degrees =
            pow(varianceBase + varianceNew, 2)
            / (pow(varianceBase, 2) / Double(base.count - 1) + pow(varianceNew, 2) / Double(new.count - 1))
        let margin = StudentT.quantile(confidence, degreesOfFreedom: degrees) * standardError
        self.init(
            ratio: exp(difference), low: exp(difference - margin), high: exp(difference + margin), logStandardError: standardError,
            degreesOfFreedom: degrees)
    }

    private static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    private static func variance(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let mean = mean(values)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }
}
