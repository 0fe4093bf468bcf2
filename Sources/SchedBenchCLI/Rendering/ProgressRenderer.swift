import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Shows the engine's events to a person on standard error: a one-line progress display
/// redrawn in place (only on a terminal, and not with `--quiet`), and messages that stay —
/// correctness failures, cases that could not run, harness overhead, gate rounds — which
/// are printed in any case.
final class ProgressRenderer: BenchObserver, Sendable {
    private let line: StatusLine
    /// The gate round and the case, shown before each update.
    private let prefix = Locked((round: "", label: ""))

    /// `live`: redraw a progress line (a terminal without `--quiet`).
    init(live: Bool) { line = StatusLine(live: live) }

    func benchEvent(_ event: BenchEvent) {
        switch event {
        case .roundStarted(let round, let of, let side):
            prefix.withLock { $0.round = "[round \(round)/\(of) \(side.rawValue)] " }
            if line.isLive { update("") } else { message("gate: round \(round)/\(of): \(side.rawValue)") }
        case .recountStarted(let cases, let rounds):
            message(
                "gate: the instruction count of \(cases.count) case(s) changed or lies undecided past half the threshold; "
                    + "counting \(cases.count == 1 ? "it" : "them") again in \(rounds) more rounds of \(cases.count == 1 ? "it" : "them") alone, and deciding on those: "
                    + cases.prefix(5).map { "\($0)" }.joined(separator: "; ") + (cases.count > 5 ? "; …" : ""))
        case .caseStarted(let benchCase, let index, let count):
            prefix.withLock { $0.label = "[\(index)/\(count)] \(benchCase)" }
            update("")
        case .trialStarted(_, let trial, let of):
            update(trial == TrialRecord.countingTrial ? " counting trials" : " trial \(trial)/\(of)")
        case .caseFinished(let result):
            for line in Self.describe(result) { message(line) }
        case .caseFailed(let benchCase, let error):
            message("error in \(benchCase): \(error)")
        case .scenarioStarted, .stressIteration, .scenarioFinished:
            // `StressRenderer` shows stress runs.
            break
        }
    }

    /// Clears the progress line (call once the work is done).
    func finish() { line.finish() }

    /// The lasting messages a finished case deserves: its harness overhead and its
    /// correctness failures with their first violations.
    static func describe(_ result: CaseResult) -> [String] {
        var lines: [String] = []
        let benchCase = result.benchCase
        if let overhead = result.overhead {
            let percent: (Double) -> String = { String(format: "%+.1f%%", $0 * 100) }
            lines.append(
                "harness overhead \(percent(overhead.median)) [\(percent(overhead.low)), \(percent(overhead.high))] "
                    + "(median of \(overhead.pairs) paired trials, ns/event collectors on vs off): \(benchCase)")
        }
        if let overhead = result.instructionOverhead {
            lines.append("harness overhead \(String(format: "%+.2f%%", overhead * 100)) (instructions/event checkers on vs off): \(benchCase)")
        }
        if result.correctnessFailures > 0 {
            let violations = result.values(.invariantViolations).reduce(0, +)
            let leaked = result.values(.resourcesLeaked).max() ?? 0
            var parts: [String] = []
            if violations > 0 { parts.append("\(Int(violations)) invariant violations") }
            if leaked > 0 { parts.append("\(Int(leaked)) Rx resources leaked") }
            lines.append(
                "correctness failure in \(benchCase): " + parts.joined(separator: ", ")
                    + ViolationRendering.lines(result.violationSamples, indent: "    ").map { "\n" + $0 }.joined())
        }
        return lines
    }

    private func update(_ suffix: String) {
        line.show(prefix.withLock { $0.round + $0.label } + suffix)
    }

    private func message(_ text: String) { line.message(text) }
}
