import BenchModel
/// A deadline for a bounded wait that does not expire while the process is kept from
/// running. A waiter that asked to pause for a short while and woke up much later was held
/// off the CPU, and so, most likely, were the threads it waits for (the machine is loaded,
/// or the stress run is niced): the deadline moves by the time lost. So a scenario says
/// `lost` when the work did not happen in the time it had, not when the machine was busy.
///
/// A stall counts when a pause overshoots by more than `tolerance`; the deadline moves by at
/// most `maximumExtension` in all, so a wait still ends on a machine that never recovers.
/// Pure arithmetic on nanosecond readings: a caller passes the clock.
struct StallCompensatedDeadline {
    private(set) var deadline: UInt64
    private var lastReading: UInt64
    private(set) var extended: UInt64 = 0
    static let tolerance: UInt64 = 20_000_000
    static let maximumExtension: UInt64 = 30_000_000_000

    init(seconds: Double, now: UInt64) {
        deadline = now + UInt64(seconds * 1e9)
        lastReading = now
    }

    /// Whether the deadline has passed at `now`, the waiter having asked for a pause of
    /// `afterPause` ns since the previous reading (the first reading counts from `init`).
    mutating func hasPassed(now: UInt64, afterPause expected: UInt64) -> Bool {
        let slept = now &- lastReading
        lastReading = now
        if slept > expected + Self.tolerance && extended < Self.maximumExtension {
            let lost = min(slept - expected, Self.maximumExtension - extended)
            deadline += lost
            extended += lost
        }
        return now > deadline
    }
}
