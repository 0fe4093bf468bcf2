import Glibc

/// The package's one monotonic clock: `CLOCK_MONOTONIC` in nanoseconds, about 20 ns per
/// read through the vDSO, never stepped by NTP or by a change of the wall clock.
///
/// `package` so the harness times its trials with the very clock the core's spin waits
/// and stall reports use; RxSwift's public API has no such type, so users do not see it.
@usableFromInline
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary point fixed at boot.
    @inlinable
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Waits until `deadline` (a `now()` value): sleeps while it is more than 200 µs away,
    /// then yields in a loop, so paced producers hit their slots within a few microseconds.
    package static func wait(until deadline: UInt64) {
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
