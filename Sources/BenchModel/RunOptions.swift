import Foundation

/// How the runner measures each case. Codable: it travels to child processes in a
/// `ChildRequest`.
package struct RunOptions: Codable, Sendable, Equatable {
    /// Timed trials per case (medians and intervals come from these).
    package var trials = 5
    /// Untimed trials before them, checked but not recorded.
    package var warmup = 1
    /// Run the extra allocation-counting trial (in a child process; see `AllocationCounter`).
    package var countAllocations = true
    /// Count instructions per event under callgrind (in child processes; needs valgrind).
    package var countInstructions = false
    /// The most instruction-counting children a run keeps at once; nil: one per processor,
    /// at most 4. A gate that runs both builds at once gives each half the processors.
    package var countingChildren: Int? = nil
    /// The processors the instruction-counting children are confined to, one child to one
    /// processor: the run's counting slots take them in turn. nil: the processors this
    /// process may run on. A gate that runs both builds at once gives each a half.
    package var countingProcessors: [Int]? = nil
    /// Whether the instruction-counting children run under real-time scheduling
    /// (`SCHED_FIFO` at the lowest priority) where this process may start them so. Where it
    /// may not, or when false, they run under the normal scheduler, and a cross-thread
    /// case's count moves with what else the machine runs.
    package var countUnderRealTime = true
    /// Whether the invariant checkers run. Off only in the instruction child that measures the
    /// checkers' own cost (`measureOverhead` with `countInstructions`).
    package var checking = true
    /// Before each timed trial, run one with checkers and collectors off, and report the
    /// harness's overhead from the paired trials (`CaseResult.overhead`).
    package var measureOverhead = false
    /// Run each case in a child process of its own, so no heap, thread pool or warm state
    /// carries from one case to the next.
    package var isolate = false
    /// Seconds a child process (an isolated case, a counting trial) may run before it is
    /// killed with its process group and reported as an error.
    package var childTimeout: TimeInterval = 1_200
    /// Seconds to wait after a trial for asynchronous teardown before counting leaked resources.
    package var leakGrace: TimeInterval = 2

    package init() {}
}

/// The untimed trials that count instead of timing; both are recorded as trial 0.
package enum CountingTrial: String, Codable, Sendable {
    case allocations
    case instructions
}
