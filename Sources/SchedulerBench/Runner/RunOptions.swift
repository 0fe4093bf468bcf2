import Foundation

/// How the runner measures each case. Codable: it travels to child processes in a
/// `ChildRequest`.
public struct RunOptions: Codable, Sendable, Equatable {
    /// Timed trials per case (medians and intervals come from these).
    public var trials = 5
    /// Untimed trials before them, checked but not recorded.
    public var warmup = 1
    /// Run the extra allocation-counting trial (in a child process; see `AllocationCounter`).
    public var countAllocations = true
    /// Count instructions per event under callgrind (in child processes; needs valgrind).
    public var countInstructions = false
    /// Whether the invariant checkers run. Off only in the instruction child that measures the
    /// checkers' own cost (`measureOverhead` with `countInstructions`).
    var checking = true
    /// Before each timed trial, run one with checkers and collectors off, and report the
    /// harness's overhead from the paired trials (`CaseResult.overhead`).
    public var measureOverhead = false
    /// Run each case in a child process of its own, so no heap, thread pool or warm state
    /// carries from one case to the next.
    public var isolate = false
    /// Seconds a child process (an isolated case, a counting trial) may run before it is
    /// killed with its process group and reported as an error.
    public var childTimeout: TimeInterval = 1_200
    /// Seconds to wait after a trial for asynchronous teardown before counting leaked resources.
    public var leakGrace: TimeInterval = 2

    public init() {}
}

/// The untimed trials that count instead of timing; both are recorded as trial 0.
enum CountingTrial: String, Codable, Sendable {
    case allocations
    case instructions
}
