import BenchChild
import BenchModel
import Foundation

/// The cases of a `cases` request, in order, in this process: each case's result goes to
/// the observer as it finishes (`caseFinished`, or `caseFailed` for a case that could not
/// run), so the tool, which writes the files, keeps what finished if this process dies.
///
/// A cancelled `cancellation` stops the run at the case in progress's next trial: that case
/// is dropped. Call `execute()` off the main thread while the main thread drains the main
/// queue (`MainThreadDriver`), as the workloads on `main` need.
package final class BenchRun {
    /// What happened to one case.
    package struct CaseOutcome: Sendable {
        package var benchCase: BenchCase
        package var result: Result<CaseResult, BenchError>
    }

    package struct Outcome: Sendable {
        /// Every case that started and ended, in order.
        package var cases: [CaseOutcome]
        /// The run stopped early because it was cancelled.
        package var interrupted: Bool
        /// The case that was running when the run was cancelled; it is not in `cases`.
        package var abandonedCase: BenchCase?

        /// The finished cases' results.
        package var results: [CaseResult] { cases.compactMap { try? $0.result.get() } }
    }

    private let cases: [BenchCase]
    private let options: RunOptions
    private let observer: any BenchObserver
    private let cancellation: CancellationToken
    private let valgrind: String?

    /// Throws `BenchError.toolMissing` when `options` asks for instruction counts and
    /// valgrind is not installed, before anything runs.
    package init(
        cases: [BenchCase], options: RunOptions, observer: any BenchObserver = SilentObserver(),
        cancellation: CancellationToken = CancellationToken()
    ) throws {
        valgrind = InstructionCounter.findValgrind()
        if options.countInstructions && valgrind == nil {
            throw BenchError.toolMissing("counting instructions needs valgrind on PATH (apt-get install valgrind)")
        }
        self.cases = cases
        self.options = options
        self.observer = observer
        self.cancellation = cancellation
    }

    package func execute() -> Outcome {
        let scratch = ScratchSpace.makeDirectory()
        defer { ScratchSpace.remove(scratch) }
        let children = CaseIsolation(scratch: scratch, valgrind: valgrind, cancellation: cancellation)
        var runner = CaseRunner(options: options, counting: children, observer: observer, cancellation: cancellation)

        var outcome = Outcome(cases: [], interrupted: false)
        if options.countInstructions {
            // Every case's instructions in a few children under callgrind, before the timed
            // trials. The cases of a child that failed are counted alone, each reporting its
            // own error.
            do {
                runner.instructionCounts = try children.countInstructions(cases, options: options, observer: observer)
            } catch is Interrupted {
                outcome.interrupted = true
                return outcome
            } catch {
                runner.instructionCounts = [:]
            }
        }
        for (index, benchCase) in cases.enumerated() {
            if cancellation.isCancelled {
                outcome.interrupted = true
                break
            }
            observer.benchEvent(.caseStarted(benchCase, index: index + 1, count: cases.count))
            let result: Result<CaseResult, BenchError>
            do {
                result = .success(try runner.run(benchCase))
            } catch is Interrupted {
                outcome.interrupted = true
                outcome.abandonedCase = benchCase
                break
            } catch {
                result = .failure(BenchError(error))
            }
            outcome.cases.append(CaseOutcome(benchCase: benchCase, result: result))
            switch result {
            case .success(let caseResult): observer.benchEvent(.caseFinished(caseResult))
            case .failure(let error): observer.benchEvent(.caseFailed(benchCase, error))
            }
        }
        return outcome
    }
}
