/// Why the engine could not do what it was asked: every error it throws is one of these.
/// None is a measurement: a broken invariant or a regression is a result
/// (`CaseResult.correctnessFailures`, `Comparison.verdict`), not an error. The CLI maps
/// every case to exit status 1 (`ExitStatus` in SchedBenchCLI); the cases let an
/// embedding program tell them apart.
package enum BenchError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// An input file is missing, unreadable or malformed; `problem` names the row or key.
    case unreadable(path: String, problem: String)
    /// An output file or directory cannot be written.
    case unwritable(path: String, problem: String)
    /// A results file is already there and the run was not asked to replace it.
    case resultsExist(path: String)
    /// Two inputs cannot be compared (no case in common, cases on one side only with
    /// `requireAll`).
    case mismatched(String)
    /// A case could not run at all (not a violation, which is measured and reported).
    case caseCannotRun(String)
    /// A child process (an isolated case, a counting trial, a gate round) failed: it could
    /// not start, died, or broke the child protocol.
    case childFailed(executable: String, problem: String)
    /// A tool the request needs is not installed (valgrind, strip).
    case toolMissing(String)
    /// A history (``History``) could not be opened, read or written: unreachable, not a
    /// history, of a newer schema, or a write that failed and was rolled back. `location` is
    /// a path or a PostgreSQL address without its password. What the history already
    /// stored is unchanged.
    case history(location: String, problem: String)
    /// A request named what the measuring executable does not have, or asked what cannot
    /// be (a usage error: the command line's exit status 64).
    case usage(String)

    package var description: String {
        switch self {
        case .unreadable(let path, let problem): return "\(path): \(problem)"
        case .unwritable(let path, let problem): return "cannot write \(path): \(problem)"
        case .resultsExist(let path): return "\(path) holds another run's results"
        case .mismatched(let problem): return problem
        case .caseCannotRun(let problem): return problem
        case .childFailed(let executable, let problem): return "\(executable): \(problem)"
        case .toolMissing(let problem): return problem
        case .history(let location, let problem): return "history \(location): \(problem)"
        case .usage(let problem): return problem
        }
    }
}

extension BenchError {
    /// `error` itself when it is a `BenchError`; otherwise a case that could not run, in
    /// the error's own words.
    package init(_ error: any Error) {
        self = (error as? BenchError) ?? .caseCannotRun("\(error)")
    }
}
