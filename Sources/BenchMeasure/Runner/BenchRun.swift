import BenchModel
import Foundation

/// A whole run: every case in order, each in this process or (with `RunOptions.isolate`)
/// in a child of its own, with the results written atomically after each case, so an
/// interrupted or failed run keeps what it finished, and `run-status.json` says how much
/// that is (`RunStatus`).
///
/// Progress goes to the `observer` as `BenchEvent`s. A cancelled `cancellation` stops the
/// run at the case in progress's next trial (a child running it is killed): that case is
/// dropped, the finished ones stay written. Call `execute()` off the main thread while the main
/// thread drains the main queue (`MainThreadDriver`), as the workloads on `main` need.
package final class BenchRun {
    /// Where a run writes its files (`results.csv` and `summary.csv`; a stress run's
    /// `stress.csv`) and the provenance they carry.
    package struct Output: Sendable {
        package var directory: URL
        package var provenance: Provenance

        package init(directory: URL, provenance: Provenance) {
            self.directory = directory
            self.provenance = provenance
        }
    }

    /// What happened to one case.
    package struct CaseOutcome: Sendable {
        package var benchCase: BenchCase
        package var result: Result<CaseResult, BenchError>
    }

    package struct Outcome: Sendable {
        /// Every case that started, in order.
        package var cases: [CaseOutcome]
        /// The run stopped early because it was cancelled.
        package var interrupted: Bool
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

    private let cases: [BenchCase]
    private let options: RunOptions
    private let observer: any BenchObserver
    private let cancellation: CancellationToken
    private let output: Output?
    private let valgrind: String?

    /// Throws `BenchError.toolMissing` when `options` asks for instruction counts and
    /// valgrind is not installed, before anything runs.
    package init(
        cases: [BenchCase], options: RunOptions, output: Output? = nil,
        observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()
    ) throws {
        valgrind = InstructionCounter.findValgrind()
        if options.countInstructions && valgrind == nil {
            throw BenchError.toolMissing("counting instructions needs valgrind on PATH (apt-get install valgrind)")
        }
        self.cases = cases
        self.options = options
        self.output = output
        self.observer = observer
        self.cancellation = cancellation
    }

    package func execute() -> Outcome {
        let scratch = ScratchSpace.makeDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let children = CaseIsolation(scratch: scratch, valgrind: valgrind, cancellation: cancellation)
        let runner = CaseRunner(options: options, counting: children, observer: observer, cancellation: cancellation)

        var outcome = Outcome(cases: [], interrupted: false, writeError: nil)
        for (index, benchCase) in cases.enumerated() {
            if cancellation.isCancelled {
                outcome.interrupted = true
                break
            }
            observer.benchEvent(.caseStarted(benchCase, index: index + 1, count: cases.count))
            let result: Result<CaseResult, BenchError>
            do {
                result = .success(options.isolate ? try children.run(benchCase, options: options, observer: observer) : try runner.run(benchCase))
            } catch is Interrupted {
                outcome.interrupted = true
                outcome.abandonedCase = benchCase
                break
            } catch {
                result = .failure(BenchError(error))
            }
            outcome.cases.append(CaseOutcome(benchCase: benchCase, result: result))
            if let output {
                do {
                    let results = outcome.results
                    try ResultsFiles.write(results, provenance: output.provenance, to: output.directory)
                    try RunStatus(planned: cases.count, finished: results.count).write(to: output.directory)
                    // An earlier run's distributions go once this run has its first case.
                    if outcome.writtenCases == 0 { LatencyFiles.removeAll(in: output.directory) }
                    if case .success(let caseResult) = result { try LatencyFiles.write(caseResult, in: output.directory) }
                    outcome.writtenCases = results.count
                } catch {
                    outcome.writeError = BenchError(error)
                    break
                }
            }
            switch result {
            case .success(let caseResult): observer.benchEvent(.caseFinished(caseResult))
            case .failure(let error): observer.benchEvent(.caseFailed(benchCase, error))
            }
        }
        return outcome
    }
}
