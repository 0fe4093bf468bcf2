import ArgumentParser
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// The documented exit statuses, and the one place that decides which applies. Commands
/// throw an `ExitStatus` to end with it; `SchedBench.main` maps everything else (a
/// `BenchError` is 1, a usage error 64).
enum ExitStatus: Int32, Error {
    /// Everything asked for was done and nothing was wrong.
    case ok = 0
    /// Unreadable, mismatched or unwritable input or output; a case or a child that could not run.
    case error = 1
    /// A performance regression (`compare`, `gate`).
    case regression = 2
    /// A correctness failure: an invariant broken, resources leaked.
    case correctnessFailure = 3
    /// Bad command-line usage (ArgumentParser's `ValidationError` exits with it).
    case usage = 64
    /// Interrupted by Ctrl-C; what finished is kept.
    case interrupted = 130
    /// Ended by SIGTERM (128 + 15); what finished is kept.
    case terminated = 143

    static let documentation = """
        Exit codes: 0 ok; 1 error (unreadable, mismatched or unwritable input or output, \
        a case or child process that could not run); 2 performance regression (compare, \
        gate); 3 correctness failure (invariant violated or resources leaked); 64 usage; \
        130 interrupted; 143 terminated.
        """

    /// A run's status: a correctness failure outranks an error, which outranks an interruption.
    init(_ outcome: RunWorkflow.Measured) {
        if !outcome.correctnessFailures.isEmpty {
            self = .correctnessFailure
        } else if !outcome.errors.isEmpty || outcome.writeError != nil {
            self = .error
        } else if outcome.interrupted {
            self = .interrupted
        } else {
            self = .ok
        }
    }

    /// A comparison's status (`compare`, `gate`).
    init(_ decision: ComparisonDecision) {
        switch decision {
        case .passed: self = .ok
        case .regressed: self = .regression
        case .correctnessFailure: self = .correctnessFailure
        case .mismatched: self = .error
        }
    }
}
