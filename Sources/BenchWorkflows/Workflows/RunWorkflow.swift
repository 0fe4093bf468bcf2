import BenchAnalysis
import BenchMeasure
import BenchModel
import Foundation

/// The run's workflow (`schedbench run`): check that the results can be kept, measure the
/// cases (`BenchRun`), then write the HTML report and add the run to a history when asked.
/// What decides whether a run is added: only a run that finished cleanly is (every case
/// written, no correctness failure, no error, not interrupted, its report written).
package struct RunWorkflow: Sendable {
    package var cases: [BenchCase]
    package var options: RunOptions
    /// Where the results go: `results/<run id>` unless given.
    package var directory: URL
    package var provenance: Provenance
    /// Replace results already in `directory` (they stay until the first case is written).
    package var replaceExisting: Bool
    /// Also write the HTML report (`report/index.html` in `directory`).
    package var writeReport: Bool
    /// Add the run to this history when it finishes cleanly.
    package var history: HistoryLocation?

    package init(
        cases: [BenchCase], options: RunOptions, directory: URL? = nil, provenance: Provenance = .current(),
        replaceExisting: Bool = false, writeReport: Bool = false, history: HistoryLocation? = nil
    ) {
        self.cases = cases
        self.options = options
        self.directory = directory ?? URL(fileURLWithPath: "results/\(provenance.runID)")
        self.provenance = provenance
        self.replaceExisting = replaceExisting
        self.writeReport = writeReport
        self.history = history
    }

    /// What happened after the measuring: the run's own outcome, then the report and the history.
    package struct Outcome: Sendable {
        package var run: BenchRun.Outcome
        /// Results files that were in `directory` before the run (replaced only once a case
        /// was written).
        package var earlierFiles: [String]
        /// The report's file or why it could not be written; nil when not asked for or no
        /// case was written.
        package var report: Result<URL, BenchError>?
        /// What became of the run in the history; nil when no history was given.
        package var history: HistoryStep?
        /// Every case written, no correctness failure, error or interruption, and the
        /// report (when asked for) written.
        package var isClean: Bool
    }

    /// What became of a run in the history.
    package enum HistoryStep: Sendable {
        /// Added, or found already stored.
        case added(History.AddOutcome)
        /// Not added: the run did not finish cleanly.
        case notAdded
        /// The history refused it (unreachable, a failed write that was rolled back).
        case failed(BenchError)
    }

    /// Checks what can be checked before anything is measured, and prepares `directory`:
    /// results already there without `replaceExisting` (`BenchError.resultsExist`), a
    /// directory that cannot be written, a history that cannot be written. Returns the
    /// results files already there.
    package func prepare() throws -> [String] {
        let existing = [ResultsFiles.resultsName, ResultsFiles.summaryName].map { directory.appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        if !replaceExisting, let first = existing.first { throw BenchError.resultsExist(path: first) }
        try ResultsFiles.prepare(directory)
        if let history { try History.checkWritable(history) }
        return existing
    }

    /// Prepares (`prepare()`, whose errors it throws), measures every case, then writes the
    /// report and adds the run to the history as asked. Call on the main thread: the cases
    /// run on a driver thread while the main thread drains the main queue.
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Outcome {
        let earlierFiles = try prepare()
        let run = try BenchRun(
            cases: cases, options: options, output: .init(directory: directory, provenance: provenance), observer: observer,
            cancellation: cancellation)
        let outcome = MainThreadDriver.run { run.execute() }
        var clean =
            outcome.correctnessFailures.isEmpty && outcome.errors.isEmpty && outcome.writeError == nil && !outcome.interrupted
            && outcome.writtenCases == cases.count
        var report: Result<URL, BenchError>?
        if writeReport && outcome.writtenCases > 0 {
            do {
                report = .success(
                    try RunReport.write(
                        run: ReportInput.read(directory.path), to: directory.appendingPathComponent("report"),
                        options: RunReport.Options(title: "schedbench run \(provenance.runID)")))
            } catch {
                report = .failure(BenchError(error))
                clean = false
            }
        }
        var historyStep: HistoryStep?
        if let history {
            if clean {
                do {
                    // What was written is what is stored: the history reads the files back.
                    let (written, writtenProvenance) = try ResultsFiles.read(directory.path)
                    historyStep = .added(try History(history, create: true).add(written, provenance: writtenProvenance ?? provenance))
                } catch {
                    historyStep = .failed(BenchError(error))
                }
            } else {
                historyStep = .notAdded
            }
        }
        return Outcome(run: outcome, earlierFiles: earlierFiles, report: report, history: historyStep, isClean: clean)
    }
}
