import Glibc

/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`, ~20 ns per read through the vDSO).
public enum MonotonicClock {
    @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Waits until `deadline`: sleeps while it is more than 200 µs away, then spins,
    /// so paced producers hit their slots within a few microseconds.
    public static func wait(until deadline: UInt64) {
        while true {
            let now = now()
            if now >= deadline { return }
            let remaining = deadline - now
            if remaining > 200_000 {
                usleep(UInt32((remaining - 150_000) / 1_000))
            } else {
                sched_yield()
            }
        }
    }
}
