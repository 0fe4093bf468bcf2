import Foundation

/// How the runner measures each case.
public struct RunOptions: Sendable {
    /// Timed trials per case (medians and intervals come from these).
    public var trials = 5
    /// Untimed trials before them, checked but not recorded.
    public var warmup = 1
    /// Run the extra allocation-counting trial (in a child process; see `AllocationCounter`).
    public var countAllocations = true
    /// Count instructions per event under callgrind (in a child process; see `InstructionCounter`).
    public var countInstructions = false
    /// Run only this counting trial, in this process: the child's side of the two above.
    public var countingOnly: CountingTrial?
    /// Whether the invariant checkers run. Off only in the instruction child that measures the
    /// checkers' own cost (`--measure-overhead` with `countInstructions`).
    public var checking = true
    /// Before each timed trial, run one with checkers and collectors off, and report the
    /// harness's overhead from the paired trials (`CaseResult.overhead`).
    public var measureOverhead = false
    /// Seconds to wait after a trial for asynchronous teardown before counting leaked resources.
    public var leakGrace: TimeInterval = 2

    public init() {}
}

/// The untimed trials that count instead of timing; both are recorded as trial 0.
public enum CountingTrial: String, Sendable {
    case allocations
    case instructions
}
