import BenchModel

/// A bounded wait for work that shows progress: the quiet deadline (`quietSeconds` of time
/// the process could use, `StallCompensatedDeadline`) starts again whenever the progress
/// count moves, so a scenario on a loaded machine, whose events arrive slowly but arrive,
/// is not called `lost`; a hard cap (`capSeconds` since the wait began) still ends a wait on
/// work that keeps moving without ever finishing. Pure arithmetic on readings: a caller
/// passes the clock and the progress count.
struct ProgressDeadline {
    /// How a wait ended when its condition did not hold.
    enum Expiry: Equatable {
        /// Nothing moved for the quiet time: the work stopped.
        case noProgress
        /// The work was still moving at the hard cap.
        case stillProgressing
    }

    /// The hard cap of every progress-aware wait: long enough for a machine at load 10 to
    /// deliver what a quiet one delivers in a second, short enough to end a stuck run.
    static let defaultCapSeconds = 60.0

    private let quietSeconds: Double
    private let cap: UInt64
    private var quiet: StallCompensatedDeadline
    private var lastProgress: Int

    init(quietSeconds: Double, capSeconds: Double = ProgressDeadline.defaultCapSeconds, progress: Int, now: UInt64, starved: UInt64 = 0) {
        self.quietSeconds = quietSeconds
        cap = now + UInt64(max(capSeconds, quietSeconds) * 1e9)
        quiet = StallCompensatedDeadline(seconds: quietSeconds, now: now, starved: starved)
        lastProgress = progress
    }

    /// Nil while the wait goes on; otherwise why it ended. `afterPause`: the pause the
    /// waiter asked for since the previous reading; `starved`: `Starvation.lost`, passed on
    /// every call or on none.
    mutating func expiry(now: UInt64, afterPause pause: UInt64, progress: Int, starved: UInt64 = 0) -> Expiry? {
        if progress != lastProgress {
            lastProgress = progress
            quiet = StallCompensatedDeadline(seconds: quietSeconds, now: now, starved: starved)
        }
        if now > cap { return .stillProgressing }
        return quiet.hasPassed(now: now, afterPause: pause, starved: starved) ? .noProgress : nil
    }
}
