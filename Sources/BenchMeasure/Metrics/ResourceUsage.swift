import BenchModel
import Glibc

/// CPU time and context switches of the whole process, from `getrusage(RUSAGE_SELF)`.
struct ResourceUsage: Sendable {
    var userSeconds: Double
    var systemSeconds: Double
    var voluntarySwitches: Int
    var involuntarySwitches: Int

    static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(
            userSeconds: seconds(usage.ru_utime),
            systemSeconds: seconds(usage.ru_stime),
            voluntarySwitches: usage.ru_nvcsw,
            involuntarySwitches: usage.ru_nivcsw
        )
    }

    static func - (lhs: ResourceUsage, rhs: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            userSeconds: lhs.userSeconds - rhs.userSeconds,
            systemSeconds: lhs.systemSeconds - rhs.systemSeconds,
            voluntarySwitches: lhs.voluntarySwitches - rhs.voluntarySwitches,
            involuntarySwitches: lhs.involuntarySwitches - rhs.involuntarySwitches
        )
    }
}
