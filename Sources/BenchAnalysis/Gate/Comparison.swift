import BenchChild
import BenchModel
import Foundation

/// BASE against NEW, case by case and metric by metric (`schedbench compare`), or NEW
/// against a history's windows of earlier runs (`compare --history`).
///
/// Cases match on every case column except `suite` (the same case measured by different
/// suites is the same measurement). Each metric present on both sides gets a
/// `RatioEstimate` and a verdict against its threshold; correctness failures in NEW and
/// cases present on one side only are listed separately.
///
/// "Regressed" is decided for the comparison as a whole (`Method.familyWise`, the default):
/// each row tests "NEW is worse than BASE by more than the threshold" one-sided, and Holm's
/// step-down over all rows keeps the chance that a comparison with no such row says
/// "regressed" at most 1 − `decisionConfidence`, however many rows it has. Per row (the
/// behaviour before), a suite of 16 cases all 3% slower under a 5% threshold failed in 22% of
/// pairs; family-wise in under 1% (the Statistical methods article has the measured rates).
package struct Comparison: Sendable {
    /// How a row's "regressed" is decided.
    package enum Method: String, Sendable, CaseIterable {
        /// Holm's step-down over every row's one-sided test: the false-alarm rate holds for
        /// the whole comparison.
        case familyWise = "family-wise"
        /// Each row on its own at `decisionConfidence`: the false-alarm rate holds per row,
        /// so it grows with the number of rows.
        case perRow = "per-row"
    }

    /// How a row's ratio and bounds were estimated (`comparison.csv`'s `estimator`).
    package enum Estimator: String, Sendable, CaseIterable {
        /// Two independent sets of trials: Welch's t on the logarithms (`RatioEstimate(base:new:)`).
        case welch
        /// Trials paired by number, as a gate's rounds are: a t on the per-round log ratios
        /// (`RatioEstimate(pairs:)`), so drift between rounds cancels.
        case paired
        /// NEW against a history's window of runs: bounds from how much whole runs differ
        /// (`RatioEstimate(window:new:)`).
        case window
        /// A value counted once per run, in its counting trial (allocations, bytes,
        /// instructions per event), against a history's window of such runs: "unchanged"
        /// when NEW lies within the threshold of the window's range (no worse than its worst
        /// run by more than the threshold, no better than its best by more), "inconclusive"
        /// past it — never "regressed" or "improved", as for `.single`. One count a run
        /// cannot be judged against a window: the same build's counts of a multi-threaded
        /// case cluster within 1% for twenty runs and then jump 1.5–2.9× in the next (a
        /// drain that falls behind allocates more chunks; docs/performance, 2026-11-27,
        /// night), so neither a t-interval of the window (6 of 30 unchanged runs failed on
        /// a count) nor its range (7 of 60 runs) tells a change from that. The bounds are NEW
        /// over the window's worst and best runs; the row has no p-value and takes no part
        /// in Holm's family. `gate` counts in every round and decides counts paired.
        case windowRange = "window-range"
        /// Fewer than two values on a side and nothing to pair, as a counting metric of two
        /// single runs (`compare BASE NEW`: one allocation trial each): no interval exists,
        /// so the noise of the metric is unknown. The row is "unchanged" when the point
        /// ratio lies within the threshold either way and "inconclusive" otherwise, never
        /// "regressed" or "improved": an unchanged build's allocation counts of a
        /// multi-threaded case move by 2× and more between runs. Gates count in every round
        /// and decide these metrics `paired`.
        case single
    }

    package enum Verdict: String, Sendable, CaseIterable {
        /// The confidence bound nearest "no change" is worse than the threshold.
        case regressed
        /// The confidence bound nearest "no change" is better than the threshold, and (in
        /// `.familyWise`) that holds for the whole comparison.
        case improved
        /// Both bounds lie within the threshold either way.
        case unchanged
        /// Too noisy to tell: the interval reaches past a threshold and includes small changes.
        case inconclusive
    }

    package struct Row: Sendable {
        package var benchCase: BenchCase
        package var metric: Metric
        package var baseMedian: Double
        package var newMedian: Double
        /// BASE's trials (in a history comparison: all the window's).
        package var baseTrials: Int
        package var newTrials: Int
        /// How many runs BASE is: 1, or the window's size in a history comparison.
        package var baseRuns: Int
        /// The ratio with the one-sided bounds the verdict uses (`Comparison.decisionConfidence`).
        /// Nil when no ratio exists (a zero or negative value on one side only).
        package var estimate: RatioEstimate?
        /// The same ratio with a two-sided 95% confidence interval, for reading.
        package var interval95: RatioEstimate?
        /// The threshold the verdict used: the thresholds' for this workload and metric, or
        /// the case's `noiseFloor` where that is larger.
        package var threshold: Double
        /// With `compare --noise-floor`: how far apart two processes of the build came in
        /// this case and metric over the A/A runs the floor was measured on (`NoiseFloor`);
        /// nil where the floor has no value for it.
        package var noiseFloor: Double? = nil
        package var verdict: Verdict
        /// How `estimate` was made, and so which rule decided `verdict`.
        package var estimator: Estimator
        /// The one-sided p-value of "NEW is at most the threshold worse than BASE" (small:
        /// the trials show it worse by more). Nil without a ratio.
        package var pValue: Double?
        /// `pValue` adjusted for the whole comparison (Holm); the row regressed, family-wise,
        /// when this is at most 1 − `decisionConfidence`. Equal to `pValue` per row.
        package var adjustedPValue: Double?
        /// The smallest change worse than the threshold that trials this noisy would show in
        /// 80% of runs, as a fraction (0.12: 12% worse): what an inconclusive row could have
        /// detected. Family-wise, at the level the first of Holm's steps uses (the family's
        /// 10% shared by all the tests), so it is what this comparison could have flagged.
        /// Nil without an interval (`Estimator.single`).
        package var detectableChange: Double?
        /// For `instructions_per_event`: how far apart two counts of one build came, when
        /// that is more than `repeatLimit` of the threshold: the largest of any run's or
        /// round's `instructions_repeat_difference` (its counts in two processes) and of each
        /// side's spread over its rounds (`Statistics.relativeRange`). The row is then
        /// inconclusive, with no p-value, and takes no part in the family.
        package var unstableRepeat: Double?
    }

    /// The share of a row's threshold by which the two counts of `instructions_per_event`,
    /// made in two processes, may differ before the row is left undecided: a third (1%
    /// under a 3% threshold).
    ///
    /// Two rounds a side cannot see a count that moves between processes:
    /// `schedule.throughput` concurrent/perAction counted 2,965 and 2,963 instructions an
    /// event in one side's two rounds of an A/A gate and 3,529 and 3,527 in the other's,
    /// and regressed. Two counts of it in one process differed by 1.4–15% in 8 of 8
    /// processes; the trampoline's by 0 (docs/performance/journal.md, "2026-11-30
    /// (morning)"). Observe(on:) `reference` on `serial` keeps one of two levels for a whole
    /// process, which only counts from two processes show, in one round or between rounds;
    /// a gate counts a case it would call changed in more processes to look for the other
    /// level (`GateWorkflow.confirmationRounds`).
    package static let repeatLimit = 1.0 / 3

    /// What NEW was judged against.
    package enum Baseline: String, Sendable {
        /// One run (`compare BASE NEW`, `gate`).
        case run
        /// Each case's window of earlier runs in a history (`compare --history`).
        case history
    }

    package var baseline: Baseline
    package var rows: [Row]
    /// Cases only BASE measured (empty in a history comparison).
    package var onlyInBase: [BenchCase]
    /// Cases only NEW measured (in a history comparison: with no comparable run stored).
    package var onlyInNew: [BenchCase]
    /// NEW's cases with invariant violations or leaked resources, with the totals and the
    /// violations described.
    package var correctnessFailures: [(benchCase: BenchCase, violations: Double, leaked: Double, samples: [ViolationSample])]

    /// How "regressed" was decided.
    package var method: Method
    /// Whether BASE's and NEW's trials were paired by trial number (a gate's rounds).
    package var paired: Bool
    /// How many one-sided tests the family-wise decision covered (rows, with the reciprocal
    /// pair ns/event and events/s of one case counted once).
    package var hypotheses: Int

    package func count(_ verdict: Verdict) -> Int { rows.filter { $0.verdict == verdict }.count }

    /// The comparison's verdict: regressed when any row regressed; otherwise improved when
    /// any row improved; unchanged when every row is; inconclusive else (or with no rows).
    package var verdict: Verdict {
        if count(.regressed) > 0 { return .regressed }
        if count(.improved) > 0 { return .improved }
        if !rows.isEmpty && count(.unchanged) == rows.count { return .unchanged }
        return .inconclusive
    }

    /// The confidence of each one-sided bound a verdict rests on. "Regressed" means: with 90%
    /// confidence, NEW is worse than BASE by more than the threshold. So a change exactly at
    /// the threshold is called a regression in at most 10% of comparisons, a change well
    /// inside it almost never, and a change twice the threshold almost always at 10 trials
    /// and 3% noise (the measured rates are in the SchedulerBench documentation, "Statistics"). At 95% the detection
    /// of a 10% slowdown at 10 trials and 3% CV falls to about 95% (94.9% measured).
    package static let decisionConfidence = 0.90

    /// Compares the metrics in `metrics` that both sides recorded. With `paired`, a
    /// metric's trials with the same number on both sides form a pair (a gate's round r is
    /// trial r on each side) and rows with two or more pairs are estimated `.paired`;
    /// otherwise (and for rows with fewer pairs) the sides are independent samples (`.welch`).
    /// With `noiseFloor`, a row's threshold is raised to its case's floor where that is
    /// larger (`NoiseFloor`).
    package init(
        base: [CaseResult], new: [CaseResult], thresholds: Thresholds,
        metrics: [Metric] = Metric.comparedByDefault, confidence: Double = Comparison.decisionConfidence,
        method: Method = .familyWise, paired: Bool = false, noiseFloor: NoiseFloor? = nil
    ) {
        let baseByKey = Dictionary(base.map { (Self.key($0.benchCase), $0) }, uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.map { Self.key($0.benchCase) })
        self.init(
            baseline: .run, new: new, baseRuns: { baseByKey[Self.key($0)].map { [$0] } ?? [] },
            onlyInBase: base.map(\.benchCase).filter { !newKeys.contains(Self.key($0)) },
            thresholds: thresholds, metrics: metrics, confidence: confidence, method: method, paired: paired, noiseFloor: noiseFloor)
    }

    /// Judges NEW against a history (`compare --history`): each case against its `window`
    /// of earlier runs on the same testbed (`History.window` in SchedulerBenchHistory). A
    /// row's estimate is `RatioEstimate(window:new:)`, which counts how much whole runs differ;
    /// its base median is the median of the window's run medians. Cases with no window are
    /// listed in `onlyInNew`.
    package init(
        window: [BenchCase: [CaseResult]], new: [CaseResult], thresholds: Thresholds,
        metrics: [Metric] = Metric.comparedByDefault, confidence: Double = Comparison.decisionConfidence,
        method: Method = .familyWise
    ) {
        let windowByKey = Dictionary(window.map { (Self.key($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.init(
            baseline: .history, new: new, baseRuns: { windowByKey[Self.key($0)] ?? [] }, onlyInBase: [],
            thresholds: thresholds, metrics: metrics, confidence: confidence, method: method, paired: false, noiseFloor: nil)
    }

    private init(
        baseline: Baseline, new: [CaseResult], baseRuns: (BenchCase) -> [CaseResult], onlyInBase: [BenchCase],
        thresholds: Thresholds, metrics: [Metric], confidence: Double, method: Method, paired: Bool, noiseFloor: NoiseFloor?
    ) {
        self.method = method
        self.paired = paired
        self.baseline = baseline
        self.onlyInBase = onlyInBase
        onlyInNew = new.map(\.benchCase).filter { baseRuns($0).isEmpty }
        correctnessFailures = new.filter { $0.correctnessFailures > 0 }.map { result in
            (
                result.benchCase, result.values(.invariantViolations).reduce(0, +), result.values(.resourcesLeaked).reduce(0, +),
                result.violationSamples
            )
        }
        rows = []
        for newResult in new {
            let runs = baseRuns(newResult.benchCase)
            guard !runs.isEmpty else { continue }
            for metric in metrics {
                let floor = metric.comparisonFloor
                let baseValues = runs.map { $0.values(metric).map { max($0, floor) } }.filter { !$0.isEmpty }
                let newValues = newResult.values(metric).map { max($0, floor) }
                guard let baseMedian = Statistics.median(runs.compactMap { Statistics.median($0.values(metric)) }),
                    let newMedian = Statistics.median(newResult.values(metric))
                else { continue }
                let measuredNoise = noiseFloor?.floor(of: metric, in: newResult.benchCase)
                let threshold = max(thresholds.threshold(for: metric, in: newResult.benchCase.workload), measuredNoise ?? 0)
                let pairs = paired && runs.count == 1 ? Self.pairs(runs[0], newResult, metric, floor: floor) : []
                let countedOnce = baseline == .history && ([newResult] + runs).allSatisfy { Self.isCountedOnce(metric, in: $0) }
                let estimator = Self.estimator(pairs: pairs.count, baseRuns: baseValues, new: newValues.count, countedOnce: countedOnce)
                func estimate(_ confidence: Double) -> RatioEstimate? {
                    switch estimator {
                    case .paired: return RatioEstimate(pairs: pairs, confidence: confidence)
                    case .windowRange: return RatioEstimate(windowRange: baseValues.map { $0[0] }, new: newValues[0])
                    case .window, .welch, .single: return RatioEstimate(window: baseValues, new: newValues, confidence: confidence)
                    }
                }
                let decided = estimate(confidence)
                let unstable = Self.unstableRepeat(metric, [newResult] + runs, threshold: threshold)
                rows.append(
                    Row(
                        benchCase: newResult.benchCase, metric: metric, baseMedian: baseMedian, newMedian: newMedian,
                        baseTrials: baseValues.reduce(0) { $0 + $1.count }, newTrials: newValues.count, baseRuns: baseValues.count,
                        estimate: decided, interval95: estimate(0.975),
                        threshold: threshold, noiseFloor: measuredNoise,
                        verdict: unstable != nil ? .inconclusive : Self.verdict(decided, metric: metric, threshold: threshold, estimator: estimator),
                        estimator: estimator,
                        pValue: estimator == .single || estimator == .windowRange || unstable != nil
                            ? nil : Self.worse(decided, metric)?.pValue(ratioAtMost: 1 + threshold),
                        unstableRepeat: unstable))
            }
        }
        hypotheses = 0
        decideFamilyWise(level: 1 - confidence)
    }

    /// The trials of `metric` that carry the same number on both sides, floored like every
    /// compared value, in trial order.
    static func pairs(_ base: CaseResult, _ new: CaseResult, _ metric: Metric, floor: Double) -> [(base: Double, new: Double)] {
        var baseByTrial: [Int: Double] = [:]
        for record in base.trials { if let value = record.metrics[metric] { baseByTrial[record.trial] = max(value, floor) } }
        return new.trials.sorted { $0.trial < $1.trial }.compactMap { record in
            guard let value = record.metrics[metric], let baseValue = baseByTrial[record.trial] else { return nil }
            return (baseValue, max(value, floor))
        }
    }

    /// When `metric` is `instructions_per_event`: the largest move between two counts of one
    /// build in `results` (each a side or a run: its rounds' `instructions_repeat_difference`,
    /// and the relative range of its rounds' counts), if it is more than `repeatLimit` of
    /// `threshold`; else nil.
    static func unstableRepeat(_ metric: Metric, _ results: [CaseResult], threshold: Double) -> Double? {
        guard metric == .instructionsPerEvent else { return nil }
        let inRounds = results.flatMap { $0.values(.instructionsRepeatDifference) }
        let betweenRounds = results.map { Statistics.relativeRange($0.values(.instructionsPerEvent)) }
        guard let largest = (inRounds + betweenRounds).max(), largest > threshold * repeatLimit else { return nil }
        return largest
    }

    /// Which estimate a row gets: paired with two pairs or more; a window of two runs or
    /// more (its range for a value counted once per run); Welch with two values a side; else
    /// none with an interval.
    static func estimator(pairs: Int, baseRuns: [[Double]], new: Int, countedOnce: Bool = false) -> Estimator {
        if pairs >= 2 { return .paired }
        if baseRuns.count >= 2 && countedOnce && new == 1 && baseRuns.allSatisfy({ $0.count == 1 }) { return .windowRange }
        if baseRuns.count >= 2 { return .window }
        if baseRuns.count == 1 && baseRuns[0].count >= 2 && new >= 2 { return .welch }
        return .single
    }

    /// Whether `result` holds `metric` only from its counting trial (once per run).
    static func isCountedOnce(_ metric: Metric, in result: CaseResult) -> Bool {
        let measured = result.trials.filter { $0.metrics[metric] != nil }
        return !measured.isEmpty && measured.allSatisfy { $0.trial == TrialRecord.countingTrial }
    }

    /// Cases match on every case column except `suite` (the same case measured by different
    /// suites is the same measurement).
    private static func key(_ benchCase: BenchCase) -> BenchCase {
        var key = benchCase
        key.suite = ""
        return key
    }

    /// Adjusts the rows' p-values (Holm, in `.familyWise`) and turns a per-row "regressed"
    /// that does not hold for the whole comparison into "inconclusive": the row's own
    /// interval lies past the threshold, but across this many rows that happens by chance.
    /// "Improved" is decided the same way, over its own family (the tests "NEW is better by
    /// more than the threshold"): without it, a gate of a build against itself, hundreds of
    /// rows, called a few noisy CPU-time rows improved every time.
    /// ns/event and events/s of one case are one hypothesis (their ratios are reciprocal:
    /// the same test twice).
    private mutating func decideFamilyWise(level: Double) {
        struct Hypothesis: Hashable {
            var benchCase: BenchCase
            var metric: Metric
        }
        func hypothesis(_ row: Row) -> Hypothesis {
            var key = row.benchCase
            key.suite = ""
            return Hypothesis(benchCase: key, metric: row.metric == .eventsPerSec ? .nsPerEvent : row.metric)
        }
        /// Each hypothesis's p-value (the smaller of its rows'), adjusted for the family.
        func adjusted(_ pValue: (Row) -> Double?) -> [Hypothesis: Double] {
            var pByHypothesis: [Hypothesis: Double] = [:]
            for row in rows {
                guard let p = pValue(row) else { continue }
                pByHypothesis[hypothesis(row)] = min(p, pByHypothesis[hypothesis(row)] ?? 1)
            }
            let keys = Array(pByHypothesis.keys)
            let values = keys.map { pByHypothesis[$0]! }
            return Dictionary(uniqueKeysWithValues: zip(keys, method == .familyWise ? Holm.adjusted(values) : values))
        }
        let worse = adjusted(\.pValue)
        let better = adjusted { row in
            row.pValue == nil ? nil : Self.worse(row.estimate, row.metric)?.pValue(ratioAtLeast: 1 / (1 + row.threshold))
        }
        hypotheses = worse.count
        let testLevel = method == .familyWise ? level / Double(max(1, hypotheses)) : level
        for index in rows.indices {
            guard rows[index].pValue != nil, let p = worse[hypothesis(rows[index])] else { continue }
            rows[index].adjustedPValue = p
            if rows[index].verdict == .regressed && p > level { rows[index].verdict = .inconclusive }
            if rows[index].verdict == .improved && (better[hypothesis(rows[index])] ?? 1) > level { rows[index].verdict = .inconclusive }
            let row = rows[index]
            rows[index].detectableChange = Self.worse(row.estimate, row.metric)?.detectableRatio(above: 1 + row.threshold, confidence: 1 - testLevel)
                .map { $0 - 1 }
        }
    }

    /// The estimate read as "how many times worse": itself for costs, inverted for metrics
    /// where higher is better.
    static func worse(_ estimate: RatioEstimate?, _ metric: Metric) -> RatioEstimate? {
        metric.higherIsBetter ? estimate?.inverted : estimate
    }

    /// Verdicts read the ratio as "how many times worse": NEW/BASE for costs, BASE/NEW for
    /// metrics where higher is better. Without an interval (`.single`) a ratio past the
    /// threshold either way is inconclusive.
    static func verdict(_ estimate: RatioEstimate?, metric: Metric, threshold: Double, estimator: Estimator = .welch) -> Verdict {
        guard let worse = worse(estimate, metric) else { return .inconclusive }
        let (worseLow, worseHigh) = (worse.low, worse.high)
        let limit = 1 + threshold
        if estimator == .single {
            return worse.ratio >= 1 / limit && worse.ratio <= limit ? .unchanged : .inconclusive
        }
        if estimator == .windowRange {
            // `worse.low` is NEW over the window's worst run, `worse.high` over its best.
            return worse.low <= limit && worse.high >= 1 / limit ? .unchanged : .inconclusive
        }
        if worseLow > limit { return .regressed }
        if worseHigh < 1 / limit { return .improved }
        if worseLow >= 1 / limit && worseHigh <= limit { return .unchanged }
        return .inconclusive
    }
}

extension Comparison.Row {
    /// Whether the ratio itself, read as "how many times worse", lies past `share` of the
    /// threshold either way (1: past the threshold), whatever its bounds decided; false
    /// without a ratio.
    package func ratioPast(_ share: Double) -> Bool {
        guard let worse = Comparison.worse(estimate, metric)?.ratio else { return false }
        let limit = 1 + threshold * share
        return worse > limit || worse < 1 / limit
    }
}

extension Metric {
    /// Compared unless `--metric` says otherwise: throughput, latency, allocations,
    /// instructions, CPU time per event and ticks. Left out: wall time (ns/event says it per
    /// event), `cpu_user_s` and `cpu_sys_s` (Linux splits CPU time between them from clock-tick
    /// samples, so over a trial of milliseconds each reads 0 or several times the truth;
    /// `cpu_ns_per_event` is their exact sum), the tail beyond p99 and context switches (too
    /// noisy to gate on by default), counts that are inputs or correctness (listed separately).
    package static let comparedByDefault: [Metric] = [
        .eventsPerSec, .nsPerEvent, .cpuNsPerEvent, .latencyP50, .latencyP99, .rssPeak,
        .allocsPerEvent, .bytesPerEvent, .instructionsPerEvent, .ticksDelivered, .tickLatenessP99,
    ]

    /// Values below this compare as this, so a path that allocated nothing and now
    /// allocates once per 100 events is unchanged, while one allocation per event is a
    /// large regression rather than an undefined ratio.
    var comparisonFloor: Double {
        switch self {
        case .allocsPerEvent: return 0.01
        case .bytesPerEvent: return 1
        case .cpuUser, .cpuSys: return 0.001
        default: return 0
        }
    }
}
