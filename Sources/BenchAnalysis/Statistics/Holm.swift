import BenchChild
import BenchModel
/// Holm's step-down procedure: which of m hypotheses to reject so that the chance of
/// rejecting any true one stays at most α, whatever the dependence between the tests.
///
/// Sort the p-values ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎; reject while p₍ₖ₎ ≤ α / (m − k + 1) and stop
/// at the first that is not. It rejects everything Bonferroni (α / m for all) rejects, and
/// more. Adjusted p-values say the same per hypothesis: p̃₍ₖ₎ = max over j ≤ k of
/// min(1, (m − j + 1) · p₍ⱼ₎), and a hypothesis is rejected exactly when p̃ ≤ α.
/// Cost: a sort, O(m log m).
package enum Holm {
    /// The adjusted p-values, in the order of `pValues`.
    package static func adjusted(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in pValues.indices.sorted(by: { pValues[$0] < pValues[$1] }).enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
