import CSpinHint

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a thread waits for another that holds something for a few hundred nanoseconds at
/// most, unless it is preempted: each `wait()` spins with the processor's spin hint for
/// the first 64 rounds, then yields the core up to round 1,024, then sleeps 20 µs
/// (`sched_yield` alone does not promise the holder the core under Linux's CFS). The
/// waiter never hangs on a preempted holder, and it burns a core only briefly.
@usableFromInline
struct Backoff {
    /// Waits so far.
    @usableFromInline private(set) var rounds = 0

    @inlinable init() {}

    /// One step of the wait; call between attempts.
    @usableFromInline
    mutating func wait() {
        rounds += 1
        if rounds <= 64 {
            rx_spin_hint()
        } else if rounds <= 1_024 {
            sched_yield()
        } else {
            usleep(20)
        }
    }
}
