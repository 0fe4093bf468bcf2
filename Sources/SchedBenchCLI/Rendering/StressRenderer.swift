import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Shows a stress run on standard error: a progress line redrawn in place (a terminal
/// without `--quiet`), a line per finished scenario (not with `--quiet`), and for every
/// failed scenario its first violations and the command that replays it (always).
final class StressRenderer: BenchObserver, Sendable {
    private let line: StatusLine
    private let quiet: Bool
    /// The running scenario, shown before each update.
    private let label = Locked("")

    init(live: Bool, quiet: Bool) {
        line = StatusLine(live: live)
        self.quiet = quiet
    }

    func benchEvent(_ event: BenchEvent) {
        switch event {
        case .scenarioStarted(let scenario, let index, let count, _):
            label.withLock { $0 = "[\(index)/\(count)] \(scenario.rawValue)" }
            update("")
        case .stressIteration(_, let iteration):
            if iteration % 16 == 0 { update(" iteration \(iteration)") }
        case .scenarioFinished(let result):
            let lines = Self.describe(result)
            if !result.passed || !quiet { message(lines.joined(separator: "\n")) }
        default:
            break
        }
    }

    /// A finished scenario in words: a summary line; for a failure, its first violations
    /// (at most five) and the replay command.
    static func describe(_ result: StressResult) -> [String] {
        let summary =
            "\(result.scenario.rawValue): \(result.iterations) iterations, \(result.operations) operations, "
            + String(format: "%.1f s", result.durationSeconds)
        if result.passed, let finished = result.interruptedAfter {
            return ["\(summary): interrupted after \(finished) iterations, no violation so far (not a pass: it did not run its budget)"]
        }
        guard !result.passed else { return ["\(summary): passed"] }
        let counts = result.violations.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
        var lines = ["FAILED \(summary): \(counts.joined(separator: ", "))"]
        lines += result.samples.prefix(5).map { "    iteration \($0.iteration): \($0.kind.rawValue): \($0.detail)" }
        if let replay = result.replayCommand { lines.append("    replay: \(replay)") }
        return lines
    }

    /// Clears the progress line.
    func finish() { line.finish() }

    private func update(_ suffix: String) {
        line.show(label.withLock { $0 } + suffix)
    }

    private func message(_ text: String) { line.message(text) }
}
