import Foundation

/// Order statistics for small samples of trials (no normality assumed).
package enum Statistics {
    /// How far apart `values` are: the largest less the smallest, over their mean (0 when
    /// there are fewer than two, when they are equal, or when their mean is not positive).
    package static func relativeRange(_ values: [Double]) -> Double {
        guard let low = values.min(), let high = values.max() else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return mean > 0 ? (high - low) / mean : 0
    }

    package static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A distribution-free confidence interval for the median: the k-th smallest and
    /// k-th largest trial, with k the largest rank whose binomial coverage
    /// 1 − 2·P(Bin(n, ½) < k) still reaches `level`. With fewer than 6 trials no pair
    /// reaches 95%, so the interval is [min, max] and `achievedLevel` says what it covers
    /// (93.75% for 5 trials). Nil for an empty sample.
    package static func medianInterval(_ values: [Double], level: Double = 0.95) -> (low: Double, high: Double, achievedLevel: Double)? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let n = sorted.count
        var best = (rank: 1, coverage: coverage(rank: 1, n: n))
        var rank = 2
        while rank <= n / 2 {
            let candidate = coverage(rank: rank, n: n)
            if candidate < level { break }
            best = (rank, candidate)
            rank += 1
        }
        return (sorted[best.rank - 1], sorted[n - best.rank], best.coverage)
    }

    /// P(X_(k) ≤ median ≤ X_(n−k+1)) = 1 − 2·P(Bin(n, ½) ≤ k − 1).
    static func coverage(rank: Int, n: Int) -> Double {
        var tail = 0.0
        for i in 0..<rank { tail += binomial(n, i) }
        return max(0, 1 - 2 * tail / pow(2, Double(n)))
    }

    static func binomial(_ n: Int, _ k: Int) -> Double {
        var result = 1.0
        for i in 0..<k { result = result * Double(n - i) / Double(i + 1) }
        return result
    }
}
