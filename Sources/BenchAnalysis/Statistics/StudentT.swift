import BenchChild
import BenchModel
import Foundation

/// Student's t distribution: the CDF through the regularized incomplete beta function
/// (continued fraction), and its quantile by safeguarded Newton steps on the CDF (a few
/// CDF evaluations; bisection whenever a step would leave the bracket). Accurate to ~1e-10;
/// used for confidence bounds and p-values, where 1e-4 would do.
enum StudentT {
    /// P(T ≤ t) with `degreesOfFreedom` (> 0, need not be an integer).
    static func cdf(_ t: Double, degreesOfFreedom v: Double) -> Double {
        let x = v / (v + t * t)
        let tail = 0.5 * regularizedIncompleteBeta(x, a: v / 2, b: 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The density at `t`.
    static func pdf(_ t: Double, degreesOfFreedom v: Double) -> Double {
        let logNormalizer: Double = lgamma((v + 1) / 2) - lgamma(v / 2) - 0.5 * log(v * Double.pi)
        return exp(logNormalizer - (v + 1) / 2 * log(1 + t * t / v))
    }

    /// The t with P(T ≤ t) = `probability` (0 < probability < 1).
    static func quantile(_ probability: Double, degreesOfFreedom v: Double) -> Double {
        precondition(probability > 0 && probability < 1 && v > 0)
        var low = -1e4
        var high = 1e4
        // Start near the answer: the normal quantile (a rough logit-based guess is enough
        // for Newton) widened for the t's heavier tails.
        let z = 0.5513 * log(probability / (1 - probability)) * 1.1
        var t = z + (z * z * z + z) / (4 * v)
        if !(t > low && t < high) { t = 0 }
        for _ in 0..<100 {
            let error = cdf(t, degreesOfFreedom: v) - probability
            if error < 0 { low = t } else { high = t }
            let density = pdf(t, degreesOfFreedom: v)
            var next = t - error / density
            if !(next > low && next < high) || !density.isNormal { next = (low + high) / 2 }
            if abs(next - t) <= 1e-12 * max(1, abs(t)) || high - low < 1e-12 { return next }
            t = next
        }
        return t
    }

    /// I_x(a, b), by the continued fraction on whichever side converges fast.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a) + lgamma(b) - lgamma(a + b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logPowers - logBeta
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
    }

    /// The continued fraction for I_x(a, b) (modified Lentz's method).
    private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...300 {
            let m = Double(m)
            // Even step.
            var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            // Odd step.
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return result
    }
}
