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
}
