import ArgumentParser
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs case by case and decide whether NEW regressed.",
        discussion: """
            BASE and NEW are results directories or results.csv files. Per case and metric: \
            both medians and the ratio NEW/BASE of the trials' geometric means, with one-sided \
            90% confidence bounds (Welch's t on the logarithms; csv output adds the two-sided \
            95% interval). Regressed: NEW is worse by more than the threshold with 90% \
            confidence for the whole comparison (Holm's step-down over every row; --per-row \
            decides each row on its own). Improved: NEW is better by more than the threshold, \
            decided the same way. Unchanged: both bounds within it. Inconclusive: too noisy to \
            tell, with the smallest change the run could have detected (does not fail unless \
            --fail-on-inconclusive). A metric with one value a side and nothing to pair (the \
            allocation and instruction counts of two runs: one counting trial each) has no \
            interval: it is unchanged within the threshold and inconclusive past it, never \
            regressed; a gate counts them in every round.

            With --paired (the baseline/ and candidate/ directories of a gate), trials with \
            the same number are pairs measured back to back, and the bounds come from a t on \
            the per-pair log ratios, as the gate decides.

            With --history DB, NEW alone is judged against each case's last --window runs in \
            the history on NEW's testbed: the change is NEW over the window's geometric mean, \
            with bounds from how much whole runs of the window differ (a t-interval for one \
            more run); the verdicts and the Holm decision are as above. A count (one value \
            per run) is put against the window's range instead: unchanged within the \
            threshold of it, inconclusive past it, never regressed (the same build's counts \
            of a multi-threaded case jump 1.5-3x between runs); a gate decides counts.

            Exit codes: 0 no regression; 2 regression; 3 correctness failure in NEW; \
            1 unreadable or mismatched input; 64 usage.
            """
    )

    @Argument(help: ArgumentHelp("BASE then NEW (results directories or results.csv files); with --history, NEW only.", valueName: "run"))
    var runs: [String]

    @Option(
        help: ArgumentHelp(
            "Judge NEW against this history (a SQLite file or a postgres:// URL) instead of a BASE run.", valueName: "path-or-url"))
    var history: String?

    @Option(help: "With --history: how many of each case's latest comparable runs to judge against (2 to 1000).")
    var window = 20

    @Flag(help: "Pair BASE's and NEW's trials by number, as a gate's rounds are (its baseline/ and candidate/).")
    var paired = false

    @OptionGroup var comparison: ComparisonOptions

    func validate() throws {
        if history == nil && runs.count != 2 {
            throw ValidationError("give BASE and NEW (\(runs.count) run\(runs.count == 1 ? "" : "s") given), or NEW with --history")
        }
        if let history {
            if runs.count != 1 { throw ValidationError("with --history, give NEW only (\(runs.count) runs given)") }
            do {
                _ = try HistoryLocation(history)
            } catch BenchError.history(let location, let problem) {
                throw ValidationError("--history \(location): \(problem)")
            }
        }
        if paired && history != nil { throw ValidationError("--paired compares two runs; a history's runs have no pairs") }
        if !(2...1000).contains(window) { throw ValidationError("--window \(window) is outside 2...1000") }
    }

    func run() throws {
        let policy = try comparison.policy()
        let new = runs[history == nil ? 1 : 0]
        let outcome =
            try history.map { try ComparisonWorkflow.compare(history: HistoryLocation($0), new: new, window: window, policy: policy) }
            ?? ComparisonWorkflow.compare(base: runs[0], new: new, paired: paired, policy: policy)
        let decision = try comparison.present(outcome, new: new)
        let status = ExitStatus(decision)
        if status != .ok { throw status }
    }
}
