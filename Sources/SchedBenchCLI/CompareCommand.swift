import ArgumentParser
import SchedulerBench

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
            decides each row on its own). Improved: the bound nearest "no change" is better \
            than the threshold. Unchanged: both bounds within it. Inconclusive: too noisy to \
            tell, with the smallest change the run could have detected (does not fail unless \
            --fail-on-inconclusive).

            Exit codes: 0 no regression; 2 regression; 3 correctness failure in NEW; \
            1 unreadable or mismatched input; 64 usage.
            """
    )

    @Argument(help: "The baseline run (directory or results.csv).")
    var base: String

    @Argument(help: "The run to judge (directory or results.csv).")
    var new: String

    @OptionGroup var comparison: ComparisonOptions

    func run() throws {
        let status = ExitStatus(try comparison.compare(base: base, new: new))
        if status != .ok { throw status }
    }
}
