import Synchronization

/// A non-recursive lock for critical sections of a few dozen instructions that never
/// call out: one compare-and-swap to take it, one plain release store to give it back.
///
/// `Lock` (a pthread mutex) pays a call into libc and a read-modify-write on both sides.
/// On the hand-off `subject → observe(on: serial) → observer`, where the subject's lock
/// is taken once per event, that was over a third of the event's cost: 62 → 36 ns per
/// event with one producer, 51 → 40 with four (medians of 9 alternating runs on this
/// machine; docs/measurements/2026-11-22-subject-lock-ab.txt).
///
/// A waiter tests with a plain load (so waiters do not bounce the line between cores)
/// and waits with `Backoff`: a holder preempted inside its critical section costs
/// waiters a sleep, never a hang. There is no fairness and no
/// priority donation, so it is only for sections that cannot block. ThreadSanitizer sees
/// the atomics (they are compiled in this module), unlike `Synchronization.Mutex`'s
/// futex path.
@usableFromInline
final class SpinningLock: @unchecked Sendable {
    @usableFromInline let locked = Atomic<Bool>(false)

    @usableFromInline init() {}

    @inlinable
    func lock() {
        if locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockContended()
    }

    @inlinable
    func unlock() {
        locked.store(false, ordering: .releasing)
    }

    /// Runs `body` while holding the lock.
    @inlinable
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// The wait when another thread holds the lock.
    @usableFromInline
    func lockContended() {
        var backoff = Backoff()
        while true {
            if !locked.load(ordering: .relaxed),
                locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            backoff.wait()
        }
    }
}
