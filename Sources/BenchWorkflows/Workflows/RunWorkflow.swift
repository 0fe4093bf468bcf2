import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// The run's workflow (`schedbench run`): check that the results can be kept, have the
/// measuring executable measure the cases (one child for all of them, or one per case with
/// `RunOptions.isolate`), write the files after every case, then write the HTML report and
/// add the run to a history when asked. What decides whether a run is added: only a run
/// that finished cleanly is (every case written, no correctness failure, no error, not
/// interrupted, its report written).
///
/// A child that dies or falls silent for `RunOptions.childTimeout` fails the case it was
/// measuring (the error says how it ended); the cases after it run in a new child, so one
/// crashing case costs one case.
package struct RunWorkflow: Sendable {
    package var target: MeasuringExecutable
    package var cases: [BenchCase]
    package var options: RunOptions
    /// Where the results go: `results/<run id>` unless given.
    package var directory: URL
    /// The measuring executable's provenance (its build and commit, this machine).
    package var provenance: Provenance
    /// Replace results already in `directory` (they stay until the first case is written).
    package var replaceExisting: Bool
    /// Also write the HTML report (`report/index.html` in `directory`).
    package var writeReport: Bool
    /// Add the run to this history when it finishes cleanly.
    package var history: HistoryLocation?
    /// The share of a plan these cases are (`run --shard K/N`), written to `shard.json`
    /// in `directory` for `merge`; nil for a whole run.
    package var shard: ShardFile?
    /// The processes every case runs in, one after another (`run --processes K`): each
    /// runs every case's warmup and `options.trials` timed trials, and its trials of a
    /// case become one value per metric, the case's trial k for process k (as a gate's
    /// rounds do), so that the run's spread is the spread between processes.
    package var processes = 1

    package init(
        target: MeasuringExecutable, cases: [BenchCase], options: RunOptions, directory: URL? = nil, provenance: Provenance,
        replaceExisting: Bool = false, writeReport: Bool = false, history: HistoryLocation? = nil, shard: ShardFile? = nil
    ) {
        self.target = target
        self.cases = cases
        self.options = options
        self.directory = directory ?? URL(fileURLWithPath: "results/\(provenance.runID)")
        self.provenance = provenance
        self.replaceExisting = replaceExisting
        self.writeReport = writeReport
        self.history = history
        self.shard = shard
    }

    /// What happened to one case.
    package struct CaseOutcome: Sendable {
        package var benchCase: BenchCase
        package var result: Result<CaseResult, BenchError>
    }

    /// What the measuring came to.
    package struct Measured: Sendable {
        /// Every case that ended, in order.
        package var cases: [CaseOutcome] = []
        /// The run stopped early because it was cancelled.
        package var interrupted = false
        /// The case that was running when the run was cancelled; it is not in `cases`.
        package var abandonedCase: BenchCase?
        /// The results could not be written; the run stopped at that case.
        package var writeError: BenchError?
        /// How many cases the results files on disk hold (the last successful write).
        package var writtenCases = 0

        /// The finished cases' results.
        package var results: [CaseResult] { cases.compactMap { try? $0.result.get() } }
        /// Finished cases with invariant violations or leaked resources.
        package var correctnessFailures: [CaseResult] { results.filter { $0.correctnessFailures > 0 } }
        /// Cases that could not run.
        package var errors: [(benchCase: BenchCase, error: BenchError)] {
            cases.compactMap { outcome in
                if case .failure(let error) = outcome.result { return (outcome.benchCase, error) }
                return nil
            }
        }
    }

    /// What happened after the measuring: the run's own outcome, then the report and the history.
    package struct Outcome: Sendable {
        package var run: Measured
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
    /// directory that cannot be written or that another process is writing to, a history
    /// that cannot be written. Then writes the shard's `shard.json`, or removes one an
    /// earlier shard left there. Returns the results files already there and the claim on
    /// the directory, held until the run ends.
    package func prepare() throws -> (earlierFiles: [String], claim: DirectoryClaim) {
        let existing = [ResultsFiles.resultsName, ResultsFiles.summaryName].map { directory.appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        try ResultsFiles.prepare(directory)
        let claim = try DirectoryClaim(directory)
        if !replaceExisting, let first = existing.first { throw BenchError.resultsExist(path: first) }
        if let history { try History.checkWritable(history) }
        if let shard {
            try shard.write(to: directory)
        } else {
            ShardFile.remove(in: directory)
        }
        return (existing, claim)
    }

    /// Prepares (`prepare()`, whose errors it throws), measures every case, then writes the
    /// report and adds the run to the history as asked.
    package func execute(observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()) throws -> Outcome {
        let (earlierFiles, claim) = try prepare()
        defer { withExtendedLifetime(claim) {} }
        let measured = measure(observer: observer, cancellation: cancellation)
        let clean =
            measured.correctnessFailures.isEmpty && measured.errors.isEmpty && measured.writeError == nil && !measured.interrupted
            && measured.writtenCases == cases.count
        let concluded = Self.conclude(
            directory: directory, runID: provenance.runID, clean: clean, writeReport: writeReport && measured.writtenCases > 0,
            history: history)
        return Outcome(
            run: measured, earlierFiles: earlierFiles, report: concluded.report, history: concluded.history, isClean: concluded.isClean)
    }

    /// What follows the measuring of a run whose files are in `directory` (`run`, and
    /// `merge` of a run's shards): its HTML report when asked for, then, when the run is
    /// `clean` and its report was written, adding it to `history` as its files say.
    package static func conclude(
        directory: URL, runID: String, clean: Bool, writeReport: Bool, history: HistoryLocation?
    ) -> (report: Result<URL, BenchError>?, history: HistoryStep?, isClean: Bool) {
        var clean = clean
        var report: Result<URL, BenchError>?
        if writeReport {
            do {
                report = .success(
                    try RunReport.write(
                        run: ReportInput.read(directory.path), to: directory.appendingPathComponent("report"),
                        options: RunReport.Options(title: "schedbench run \(runID)")))
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
                    guard let writtenProvenance else { throw BenchError.unreadable(path: directory.path, problem: "holds no results") }
                    historyStep = .added(try History(history, create: true).add(written, provenance: writtenProvenance))
                } catch {
                    historyStep = .failed(BenchError(error))
                }
            } else {
                historyStep = .notAdded
            }
        }
        return (report, historyStep, clean)
    }

    /// Measures the cases in children of the measuring executable, writing after each
    /// case; or, in several `processes`, after each process.
    func measure(observer: any BenchObserver, cancellation: CancellationToken) -> Measured {
        let files = RunFiles(directory: directory, provenance: provenance, planned: cases.count)
        guard processes > 1 else {
            let recorder = CaseRecorder(files: files, total: cases.count, observer: observer, cancellation: cancellation)
            measureOnce(recorder, cancellation: cancellation)
            return recorder.measured
        }
        var merged: [CaseResult] = []
        var failed: [BenchCase: BenchError] = [:]
        var state = Measured()
        for process in 1...processes {
            if cancellation.isCancelled { break }
            let recorder = CaseRecorder(files: nil, total: cases.count, observer: observer, cancellation: cancellation)
            measureOnce(recorder, cancellation: cancellation)
            let pass = recorder.measured
            if pass.interrupted {
                // The unfinished process's values are dropped: every case keeps one value per finished process.
                state.interrupted = true
                state.abandonedCase = pass.abandonedCase
                break
            }
            for case (let benchCase, let error) in pass.errors where failed[benchCase] == nil { failed[benchCase] = error }
            merged = InterleavedRuns.merge(merged, pass.results, round: process).filter { failed[$0.benchCase] == nil }
            do {
                try files.write(merged, processes: processes, finished: process)
                state.writtenCases = merged.count
            } catch {
                state.writeError = BenchError(error)
                break
            }
        }
        let byCase = Dictionary(uniqueKeysWithValues: merged.map { ($0.benchCase, $0) })
        state.cases = cases.compactMap { benchCase in
            if let error = failed[benchCase] { return CaseOutcome(benchCase: benchCase, result: .failure(error)) }
            return byCase[benchCase].map { CaseOutcome(benchCase: benchCase, result: .success($0)) }
        }
        return state
    }

    /// One pass over every case, in children of the measuring executable (one for all of
    /// them, or one per case with `RunOptions.isolate`); `recorder` keeps what ends.
    private func measureOnce(_ recorder: CaseRecorder, cancellation: CancellationToken) {
        var next = 0
        while next < cases.count && !cancellation.isCancelled && recorder.writeError == nil {
            let batch = options.isolate ? [cases[next]] : Array(cases[next...])
            // Also stopped when a write fails: the child's further cases could not be kept.
            let child = CancellationToken(following: cancellation)
            recorder.startBatch(at: next, stopping: child)
            do {
                _ = try ChildProcess(binary: target.path).run(
                    ChildRequest(job: .cases, cases: batch, options: options), observer: recorder, idleTimeout: options.childTimeout,
                    cancellation: child)
            } catch is Interrupted {
                break
            } catch {
                // The child died or fell silent: the case it was on failed; the rest run anew.
                recorder.childEnded(BenchError(error), batch: batch)
            }
            next = recorder.ended
        }
        if cancellation.isCancelled { recorder.interrupted() }
    }
}

/// Hears a child's events: forwards its progress (renumbered across children), and keeps
/// and writes each case's outcome as it ends. Once the run is cancelled, a case that ends
/// is the abandoned one and is not kept (the child is being killed; what it sent before
/// the kill reached it is dropped, as a run in one process would not have finished it).
private final class CaseRecorder: BenchObserver, @unchecked Sendable {
    /// Where each case is written as it ends; nil when the caller writes (`processes`).
    private let files: RunFiles?
    private let total: Int
    private let observer: any BenchObserver
    private let lock = NSLock()
    private var state = RunWorkflow.Measured()
    /// Where the current child's cases start in the run.
    private var offset = 0
    /// The case the current child announced last and has not ended.
    private var inProgress: BenchCase?
    /// Stops the current child (a failed write).
    private var stopping: CancellationToken?

    private let cancellation: CancellationToken

    init(files: RunFiles?, total: Int, observer: any BenchObserver, cancellation: CancellationToken) {
        self.files = files
        self.total = total
        self.observer = observer
        self.cancellation = cancellation
    }

    var measured: RunWorkflow.Measured { lock.withLock { state } }
    var writeError: BenchError? { lock.withLock { state.writeError } }
    /// How many cases have ended (finished or failed).
    var ended: Int { lock.withLock { state.cases.count } }

    func startBatch(at offset: Int, stopping: CancellationToken) {
        lock.withLock {
            self.offset = offset
            self.stopping = stopping
        }
    }

    func benchEvent(_ event: BenchEvent) {
        if cancellation.isCancelled {
            switch event {
            case .caseFinished(let result): lock.withLock { inProgress = result.benchCase }
            case .caseFailed(let benchCase, _): lock.withLock { inProgress = benchCase }
            default: break
            }
            return
        }
        switch event {
        case .caseStarted(let benchCase, let index, _):
            let (offset, total) = lock.withLock { () -> (Int, Int) in
                inProgress = benchCase
                return (self.offset, self.total)
            }
            observer.benchEvent(.caseStarted(benchCase, index: offset + index, count: total))
        case .caseFinished(let result):
            end(result.benchCase, .success(result))
            observer.benchEvent(event)
        case .caseFailed(let benchCase, let error):
            end(benchCase, .failure(error))
            observer.benchEvent(event)
        default:
            observer.benchEvent(event)
        }
    }

    /// The child ended without ending its current case: that case failed with `error` (or,
    /// when it had not started one, the next of `batch` did).
    func childEnded(_ error: BenchError, batch: [BenchCase]) {
        let failed: BenchCase? = lock.withLock { inProgress ?? batch.dropFirst(state.cases.count - offset).first }
        guard let failed else { return }
        end(failed, .failure(error))
        observer.benchEvent(.caseFailed(failed, error))
    }

    /// The run was cancelled: the case in progress is dropped.
    func interrupted() {
        lock.withLock {
            state.interrupted = true
            state.abandonedCase = state.abandonedCase ?? inProgress
            inProgress = nil
        }
    }

    private func end(_ benchCase: BenchCase, _ result: Result<CaseResult, BenchError>) {
        lock.withLock {
            inProgress = nil
            state.cases.append(.init(benchCase: benchCase, result: result))
            guard state.writeError == nil, let files else { return }
            do {
                let results = state.results
                try files.write(results, latest: try? result.get())
                state.writtenCases = results.count
            } catch {
                state.writeError = BenchError(error)
                stopping?.cancel()
            }
        }
    }
}
