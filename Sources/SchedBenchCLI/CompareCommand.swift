import ArgumentParser
import Foundation
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

            Two runs differ by more than their processes show when a case keeps one mode for \
            a whole run (a count at one of two levels in every process of one run). With \
            --noise-floor FILE, each row's threshold is raised to how far apart two processes \
            of one build came in that case and metric over A/A runs; --write-noise-floor FILE \
            RUN RUN... measures that from two or more runs of one build (make them as the runs \
            you compare, with --processes 5) and compares nothing.

            Exit codes: 0 no regression; 2 regression; 3 correctness failure in NEW; \
            1 unreadable or mismatched input; 64 usage.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "BASE then NEW (results directories or results.csv files); with --history, NEW only; with --write-noise-floor, the A/A runs.",
            valueName: "run"))
    var runs: [String]

    @Option(
        help: ArgumentHelp(
            "Judge NEW against this history (a SQLite file or a postgres:// URL) instead of a BASE run.", valueName: "path-or-url"))
    var history: String?

    @Option(help: "With --history: how many of each case's latest comparable runs to judge against (2 to 1000).")
    var window = 20

    @Flag(help: "Pair BASE's and NEW's trials by number, as a gate's rounds are (its baseline/ and candidate/).")
    var paired = false

    @Option(
        help: ArgumentHelp(
            "A noise floor file (--write-noise-floor): each row's threshold is raised to its case's floor where that is larger.",
            valueName: "file"))
    var noiseFloor: String?

    @Option(
        help: ArgumentHelp(
            "Measure the noise floor of the runs given (two or more runs of one build) and write it to this file; compares nothing.",
            valueName: "file"))
    var writeNoiseFloor: String?

    @OptionGroup var comparison: ComparisonOptions

    func validate() throws {
        if writeNoiseFloor != nil {
            if runs.count < 2 { throw ValidationError("--write-noise-floor needs two or more runs of one build (\(runs.count) given)") }
            if history != nil || paired || noiseFloor != nil {
                throw ValidationError("--write-noise-floor measures runs and compares nothing: leave out --history, --paired and --noise-floor")
            }
            return
        }
        if noiseFloor != nil && history != nil {
            throw ValidationError("--noise-floor is for two runs; a history comparison has each case's window of runs instead")
        }
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
        if let writeNoiseFloor {
            try measureNoiseFloor(into: writeNoiseFloor)
            return
        }
        var policy = try comparison.policy()
        policy.noiseFloor = try noiseFloor.map { try NoiseFloor.read($0) }
        let new = runs[history == nil ? 1 : 0]
        let outcome =
            try history.map { try ComparisonWorkflow.compare(history: HistoryLocation($0), new: new, window: window, policy: policy) }
            ?? ComparisonWorkflow.compare(base: runs[0], new: new, paired: paired, policy: policy)
        let decision = try comparison.present(outcome, new: new)
        let status = ExitStatus(decision)
        if status != .ok { throw status }
    }

    /// `--write-noise-floor`: the floor of the runs, written to `path`, and a line saying
    /// what it holds and its widest floors of counts.
    private func measureNoiseFloor(into path: String) throws {
        let (floor, notices) = try ComparisonWorkflow.measureNoiseFloor(runs: runs)
        for case .warning(let text) in notices { printError("warning: \(TerminalText.visible(text))") }
        try floor.write(to: URL(fileURLWithPath: path))
        let values = floor.floors.values.reduce(0) { $0 + $1.count }
        print("noise floor of \(runs.count) runs: \(values) values over \(floor.floors.count) cases → \(path)")
        let counts: [Metric] = [.allocsPerEvent, .bytesPerEvent, .instructionsPerEvent]
        let widest = floor.floors.flatMap { name, metrics in
            metrics.filter { counts.contains($0.key) }.map { (name: name, metric: $0.key, floor: $0.value) }
        }.sorted { $0.floor > $1.floor }.prefix(3)
        for entry in widest {
            print("  \(entry.name) \(entry.metric.rawValue): \(String(format: "%.1f%%", entry.floor * 100))")
        }
    }
}
