import BenchModel
/// A deadline for a bounded wait that does not expire while the process is kept from
/// running. Two signs say it was: a waiter that asked to pause for a short while and woke
/// up much later was held off the CPU, and so, most likely, were the threads it waits for;
/// and the process's threads waited in a run queue behind other processes (`Starvation`,
/// whose total the caller passes as `starved`), which also covers a waiter that wakes on
/// time while the threads it waits for do not run. The deadline moves by the larger of the
/// two. So a scenario says `lost` when the work did not happen in the time it had, not when
/// the machine was busy.
///
/// A stall counts when a pause overshoots by more than `tolerance`. The deadline moves by
/// at most `maximumExtension` in all, so a wait still ends on a machine that never
/// recovers: 50 times the wait, and at least 30 s. A process that gets 3% of the
/// processors (`nice 10` beside six busy loops on two) needs 33 times the wall-clock time
/// for the same work; a thread that spins for ever on such a machine is reported after 50
/// times the wait, and one that is blocked (nothing of the process runnable) on time.
/// Pure arithmetic on nanosecond readings: a caller passes the clock and, on every call or
/// on none, `Starvation.lost`.
struct StallCompensatedDeadline {
    private(set) var deadline: UInt64
    private var lastReading: UInt64
    private var lastStarved: UInt64
    private(set) var extended: UInt64 = 0
    let maximumExtension: UInt64
    static let tolerance: UInt64 = 20_000_000
    static let leastMaximumExtension: UInt64 = 30_000_000_000
    static let extensionFactor: Double = 50

    init(seconds: Double, now: UInt64, starved: UInt64 = 0) {
        deadline = now + UInt64(seconds * 1e9)
        lastReading = now
        lastStarved = starved
        maximumExtension = max(Self.leastMaximumExtension, UInt64(seconds * Self.extensionFactor * 1e9))
    }

    /// Whether the deadline has passed at `now`, the waiter having asked for a pause of
    /// `afterPause` ns since the previous reading (the first reading counts from `init`), and
    /// the process having lost `starved` ns in all to other processes.
    mutating func hasPassed(now: UInt64, afterPause expected: UInt64, starved: UInt64 = 0) -> Bool {
        let slept = now &- lastReading
        lastReading = now
        let overshoot = slept > expected + Self.tolerance ? slept - expected : 0
        // Not bounded by `slept`: `Starvation` is sampled less often than some waiters read
        // it, and bounds each sample by the time it covers.
        let queued = starved &- min(lastStarved, starved)
        lastStarved = max(lastStarved, starved)
        let lost = max(overshoot, queued)
        if lost > 0 && extended < maximumExtension {
            let granted = min(lost, maximumExtension - extended)
            deadline += granted
            extended += granted
        }
        return now > deadline
    }
}
