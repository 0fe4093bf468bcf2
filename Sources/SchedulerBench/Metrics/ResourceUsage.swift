import BenchModel
import Glibc

/// CPU time and context switches of the whole process.
///
/// `cpuNanos` reads the process CPU clock (`CLOCK_PROCESS_CPUTIME_ID`) with every thread's
/// share brought up to date (`CPUClock.processUpToDate()`): the run time of every thread, in
/// nanoseconds, so it resolves a trial of a few milliseconds; the difference of two readings
/// leaves out what the later reading itself cost.
/// `userSeconds` and `systemSeconds` come from `getrusage(RUSAGE_SELF)`, whose split between
/// user and system time Linux estimates from clock-tick samples: over a trial that short the
/// two can read 0 or several times the truth, and only their sum over long trials is
/// meaningful. Cost: one system call each (about a microsecond), read outside the timed work.
struct ResourceUsage: Sendable {
    var userSeconds: Double
    var systemSeconds: Double
    var cpuNanos: UInt64
    /// The calling thread's CPU time spent taking `cpuNanos` (included in it).
    var cpuReadingCost: UInt64
    var voluntarySwitches: Int
    var involuntarySwitches: Int

    static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let cpu = CPUClock.processUpToDate()
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(
            userSeconds: seconds(usage.ru_utime),
            systemSeconds: seconds(usage.ru_stime),
            cpuNanos: cpu?.nanoseconds ?? 0,
            cpuReadingCost: cpu?.readingCost ?? 0,
            voluntarySwitches: usage.ru_nvcsw,
            involuntarySwitches: usage.ru_nivcsw
        )
    }

    static func - (lhs: ResourceUsage, rhs: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            userSeconds: lhs.userSeconds - rhs.userSeconds,
            systemSeconds: lhs.systemSeconds - rhs.systemSeconds,
            cpuNanos: lhs.cpuNanos &- lhs.cpuReadingCost &- rhs.cpuNanos,
            cpuReadingCost: 0,
            voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
            involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches
        )
    }
}
