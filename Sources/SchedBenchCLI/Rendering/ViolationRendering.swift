import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Invariant violations as a person reads them under a failing case: where each was
/// seen, then what the checker said, one line each, with descriptions from files made
/// visible (`TerminalText`). At most `shown` lines; the rest are counted, and
/// `violations.csv` in the run's directory has them all.
enum ViolationRendering {
    static let shown = 10

    static func lines(_ samples: [ViolationSample], indent: String) -> [String] {
        var lines = samples.prefix(shown).map { sample in
            indent + "\(sample.location): " + TerminalText.visible(sample.description).replacingOccurrences(of: "\n", with: " ")
        }
        if samples.count > shown { lines.append(indent + "… and \(samples.count - shown) more in violations.csv") }
        return lines
    }
}
