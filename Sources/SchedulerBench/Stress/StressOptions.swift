import Foundation

/// How long and how hard one scenario is stressed.
public struct StressOptions: Codable, Sendable, Equatable {
    /// The run's seed: every decision of every iteration derives from it.
    public var seed: UInt64
    /// Wall-clock budget for the scenario; nil: only `iterations` bounds it.
    public var seconds: Double?
    /// Iterations to run at most; nil: only `seconds` bounds it.
    public var iterations: Int?
    /// Extra spinning threads while the scenario runs.
    public var spinners: Int
    /// Seconds without progress after which the scenario is declared hung.
    public var hangTimeout: Double

    /// The default budget of a whole run, split evenly across the scenarios it runs.
    public static let defaultRunSeconds = 60.0
    public static let defaultHangTimeout = 3.0
    public static let defaultSpinners = 1

    public init(seed: UInt64, seconds: Double?, iterations: Int?, spinners: Int = defaultSpinners, hangTimeout: Double = defaultHangTimeout) {
        self.seed = seed
        self.seconds = seconds
        self.iterations = iterations
        self.spinners = spinners
        self.hangTimeout = hangTimeout
    }
}
