import Foundation

/// A deliberate fault, for checking that the harness catches what it claims to catch.
/// Never set in real runs.
package enum FaultInjection: String, CaseIterable, Sendable {
    /// `observeOn.throughput`'s first producer sends its first event twice: the run must
    /// fail with exit 3.
    case duplicate
    /// A stress scenario's child process crashes in iteration `crashIteration`: the
    /// stress run must report a `crash` there, with the child's backtrace.
    case crash
    /// A stress child waits a second before it listens for the request to stop (a child
    /// slow to start on a loaded machine): a Ctrl-C meanwhile must still stop the scenario
    /// after its current iteration.
    case slowStressStart
    /// A SchedulerBench executable registers its package's entries twice: it must end at
    /// startup with exit status 1 and a message naming the first name registered again.
    case registerTwice
    /// Every timed trial blocks for ever before it starts (a registered workload that
    /// hangs): `run` must kill the child after `--child-timeout` and fail the case, saying so.
    case hangTrial

    package static let crashIteration = 3

    package static let environmentKey = "SCHEDBENCH_INJECT_FAULT"

    package static let current: FaultInjection? =
        ProcessInfo.processInfo.environment[environmentKey].flatMap(FaultInjection.init(rawValue:))

    /// Why the environment's fault request cannot be honoured (a misspelt fault must not
    /// be silently ignored: the run would pass without testing anything), or nil.
    package static var environmentProblem: String? {
        guard let requested = ProcessInfo.processInfo.environment[environmentKey], FaultInjection(rawValue: requested) == nil else {
            return nil
        }
        return "\(environmentKey)='\(requested)' is not a fault the harness can inject; valid: "
            + allCases.map(\.rawValue).joined(separator: ", ")
    }
}
