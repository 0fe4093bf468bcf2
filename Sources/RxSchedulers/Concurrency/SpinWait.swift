import CSpinHint

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a drainer that finds its queue empty waits before it gives up its token (after
/// which the next event pays a dispatch and a thread wake-up, 1–5 µs here).
///
/// It polls the queue again `polls` times, `interval` apart, spinning with the
/// processor's spin-wait hint in between: at most `polls × interval` (1 µs) of one core
/// per burst, and an event published during the wait is picked up at most `interval`
/// late.
///
/// Why not poll continuously: a consumer that reads the slot a producer is about to
/// write pulls that cache line to its own core on every poll, and the producer's next
/// write must fetch it back, about one cross-core miss per event while the consumer is
/// caught up. With polls 1 µs apart a streaming producer fills whole lines undisturbed.
/// On this project's machine that took `subject → observe(on: serial) → observer` from
/// 133 to 55 ns per event with one producer and from 85 to 42 with four (medians of 11
/// alternating runs against 256 back-to-back polls;
/// docs/measurements/2026-11-22-spaced-polls-ab.txt).
@usableFromInline
enum SpinWait {
    /// Polls after the first empty one before giving up.
    @inlinable static var polls: Int { 1 }
    /// Nanoseconds between polls.
    @inlinable static var interval: UInt64 { 1_000 }

    /// `next()`, retried up to `polls` times, `interval` apart, while it returns `nil`.
    @inlinable
    static func poll<Element>(_ next: () -> Element?) -> Element? {
        for _ in 0..<polls {
            spin(nanoseconds: interval)
            if let element = next() { return element }
        }
        return nil
    }

    /// `attempt()`, retried up to `polls` times, `interval` apart, while it returns
    /// `false`; returns whether it succeeded.
    @inlinable
    static func poll(until attempt: () -> Bool) -> Bool {
        poll { attempt() ? () : nil } != nil
    }

    /// Spins for about `nanoseconds`, reading the clock every few spin hints (the hint's
    /// duration differs tenfold between processors; the clock's vDSO read is ~20 ns).
    @inlinable
    static func spin(nanoseconds: UInt64) {
        let deadline = MonotonicClock.now() &+ nanoseconds
        repeat {
            for _ in 0..<4 { rx_spin_hint() }
        } while MonotonicClock.now() < deadline
    }
}
