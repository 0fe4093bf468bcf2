import Foundation
import Synchronization

/// A whole run: every case in order, results written atomically after each case (so an
/// interrupted or failed run keeps what it finished), progress on stderr, correctness tallied.
public final class BenchRun {
    public struct Outcome {
        public var results: [CaseResult]
        /// Cases with invariant violations or leaked resources.
        public var failedCases: [CaseResult]
        public var interrupted: Bool
        /// Errors that stopped the run (unwritable output, a case that could not run).
        public var errors: [String]
    }

    /// Set by the first Ctrl-C: the run stops after the current case.
    public static let interruptRequested = Atomic<Bool>(false)

    private let cases: [BenchCase]
    private let options: RunOptions
    private let directory: URL
    private let provenance: Provenance
    private let progress: ProgressLine
    private let isolation: IsolatedCaseRunner?
    /// Runs the counting trials: allocations, and instructions when valgrind is known.
    private let countingChild: IsolatedCaseRunner

    public init(cases: [BenchCase], options: RunOptions, directory: URL, provenance: Provenance,
                showProgress: Bool, isolation: IsolatedCaseRunner? = nil, valgrind: String? = nil) {
        self.cases = cases
        self.options = options
        self.directory = directory
        self.provenance = provenance
        progress = ProgressLine(enabled: showProgress)
        self.isolation = isolation
        countingChild = IsolatedCaseRunner(scratch: directory.appendingPathComponent(".children"), valgrind: valgrind)
    }

    public func execute() -> Outcome {
        var outcome = Outcome(results: [], failedCases: [], interrupted: false, errors: [])
        for (index, benchCase) in cases.enumerated() {
            if Self.interruptRequested.load(ordering: .relaxed) {
                outcome.interrupted = true
                break
            }
            let label = "[\(index + 1)/\(cases.count)] \(benchCase)"
            progress.update(label)
            do {
                let result: CaseResult
                if let isolation {
                    result = try isolation.run(benchCase, options: options)
                } else {
                    var runner = CaseRunner(options: options, countingChild: countingChild)
                    runner.onTrial = { [progress] trial, of in
                        progress.update(trial == TrialRecord.countingTrial ? "\(label) counting trials" : "\(label) trial \(trial)/\(of)")
                    }
                    result = try runner.run(benchCase)
                }
                outcome.results.append(result)
                if let overhead = result.overhead {
                    let percent: (Double) -> String = { String(format: "%+.1f%%", $0 * 100) }
                    progress.message("harness overhead \(percent(overhead.median)) [\(percent(overhead.low)), \(percent(overhead.high))] "
                                     + "(median of \(overhead.pairs) paired trials, ns/event collectors on vs off): \(benchCase)")
                }
                if let overhead = result.instructionOverhead {
                    progress.message("harness overhead \(String(format: "%+.2f%%", overhead * 100)) (instructions/event checkers on vs off): \(benchCase)")
                }
                if result.correctnessFailures > 0 {
                    outcome.failedCases.append(result)
                    progress.message("correctness failure in \(benchCase): " + describeFailure(result))
                }
            } catch {
                outcome.errors.append("\(benchCase): \(error)")
                progress.message("error in \(benchCase): \(error)")
            }
            do {
                try ResultsFiles.write(outcome.results, provenance: provenance, to: directory)
            } catch {
                outcome.errors.append("\(error)")
                break
            }
        }
        progress.finish()
        return outcome
    }

    private func describeFailure(_ result: CaseResult) -> String {
        let violations = result.values(.invariantViolations).reduce(0, +)
        let leaked = result.values(.resourcesLeaked).max() ?? 0
        var parts: [String] = []
        if violations > 0 { parts.append("\(Int(violations)) invariant violations") }
        if leaked > 0 { parts.append("\(Int(leaked)) Rx resources leaked") }
        return parts.joined(separator: ", ") + result.violationSamples.map { "\n    \($0)" }.joined()
    }
}

/// A one-line progress display on stderr, redrawn in place; silent unless enabled (a terminal and no `--quiet`).
public final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var shown = false

    public init(enabled: Bool) { self.enabled = enabled }

    public func update(_ text: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        shown = true
    }

    /// A message that stays (always printed, progress or not).
    public func message(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    public func finish() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
