import Foundation

/// How the runner measures each case.
public struct RunOptions: Sendable {
    /// Timed trials per case (medians and intervals come from these).
    public var trials = 5
    /// Untimed trials before them, checked but not recorded.
    public var warmup = 1
    /// Run the extra allocation-counting trial (in a child process; see `AllocationCounter`).
    public var countAllocations = true
    /// Run only the allocation-counting trial, in this process (the child's side of the above).
    public var allocationsOnly = false
    /// Before each timed trial, run one with checkers and collectors off, and report the
    /// harness's overhead as the ratio of the medians (`CaseResult.overhead`).
    public var measureOverhead = false
    /// Seconds to wait after a trial for asynchronous teardown before counting leaked resources.
    public var leakGrace: TimeInterval = 2

    public init() {}
}
