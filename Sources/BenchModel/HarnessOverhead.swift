/// The harness's cost on one case: each timed trial is paired with one run with checkers and
/// collectors off, just before it in odd trials and just after it in even ones; per pair,
/// ns/event on over off, minus 1 (0.02 = 2%).
/// `median` is the median over pairs, `low`/`high` its distribution-free interval
/// (`Statistics.medianInterval`). Pairing cancels drift between trials; the interval
/// shows how much noise is left; alternating the order cancels the second-trial slowdown
/// seen on this machine.
package struct HarnessOverhead: Codable, Sendable {
    package var median: Double
    package var low: Double
    package var high: Double
    package var pairs: Int

    /// Nil without pairs.
    package init?(pairs: [(on: Double, off: Double)]) {
        let ratios = pairs.filter { $0.off > 0 }.map { $0.on / $0.off - 1 }
        guard let median = Statistics.median(ratios), let interval = Statistics.medianInterval(ratios) else { return nil }
        self.median = median
        low = interval.low
        high = interval.high
        self.pairs = ratios.count
    }
}
