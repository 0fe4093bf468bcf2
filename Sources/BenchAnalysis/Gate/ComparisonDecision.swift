import BenchChild
import BenchModel
/// What a comparison means for CI, from its rows: the outcome `compare` and `gate` act on
/// (the CLI turns it into an exit status). The most serious applies: inputs that cannot be
/// compared, then a correctness failure in NEW, then a regression.
package enum ComparisonDecision: Sendable, Equatable {
    /// No regression (and, with `failOnInconclusive`, nothing inconclusive).
    case passed
    /// Rows regressed (or were inconclusive, with `failOnInconclusive`).
    case regressed(regressed: Int, inconclusive: Int)
    /// NEW has cases with invariant violations or leaked resources.
    case correctnessFailure(cases: Int)
    /// Nothing to compare, or (with `requireAll`) cases measured on one side only.
    case mismatched(String)
}

extension Comparison {
    /// Decides. `base` and `new` name the inputs in messages; `baseCases` and `newCases`
    /// are how many cases each side held.
    package func decision(
        baseCases: Int, newCases: Int, base: String, new: String,
        requireAll: Bool = false, failOnInconclusive: Bool = false
    ) -> ComparisonDecision {
        if baseCases == 0 || newCases == 0 || rows.isEmpty && correctnessFailures.isEmpty {
            return .mismatched(
                "nothing to compare: \(baseCases) cases in \(base), \(newCases) in \(new), "
                    + "\(baseCases - onlyInBase.count) in common with a metric on both sides")
        }
        if requireAll && !(onlyInBase.isEmpty && onlyInNew.isEmpty) {
            return .mismatched("every case must be on both sides: \(onlyInBase.count) cases only in \(base), \(onlyInNew.count) only in \(new)")
        }
        if !correctnessFailures.isEmpty { return .correctnessFailure(cases: correctnessFailures.count) }
        let regressed = count(.regressed)
        let inconclusive = count(.inconclusive)
        if regressed > 0 || failOnInconclusive && inconclusive > 0 {
            return .regressed(regressed: regressed, inconclusive: failOnInconclusive ? inconclusive : 0)
        }
        return .passed
    }
}
