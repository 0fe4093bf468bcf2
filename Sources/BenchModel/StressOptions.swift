import Foundation

/// How long and how hard one scenario is stressed.
package struct StressOptions: Codable, Sendable, Equatable {
    /// The run's seed: every decision of every iteration derives from it.
    package var seed: UInt64
    /// Wall-clock budget for the scenario; nil: only `iterations` bounds it.
    package var seconds: Double?
    /// Iterations to run at most; nil: only `seconds` bounds it.
    package var iterations: Int?
    /// Extra spinning threads while the scenario runs.
    package var spinners: Int
    /// Seconds without progress after which the scenario is declared hung.
    package var hangTimeout: Double
    /// The registered scheduler `scheduler.contract` stresses (`--scheduler`); nil: each
    /// iteration picks a built-in.
    package var scheduler: SchedulerName?
    /// The core's stress points that may be perturbed (`--points`, by name); nil: every
    /// point; empty: none (the scenarios' own pauses and spinning threads only).
    package var points: [String]?

    /// The default budget of a whole run, split evenly across the scenarios it runs.
    package static let defaultRunSeconds = 60.0
    package static let defaultHangTimeout = 3.0
    package static let defaultSpinners = 1

    package init(
        seed: UInt64, seconds: Double?, iterations: Int?, spinners: Int = defaultSpinners, hangTimeout: Double = defaultHangTimeout,
        scheduler: SchedulerName? = nil, points: [String]? = nil
    ) {
        self.scheduler = scheduler
        self.points = points
        self.seed = seed
        self.seconds = seconds
        self.iterations = iterations
        self.spinners = spinners
        self.hangTimeout = hangTimeout
    }
}
