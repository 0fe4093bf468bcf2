import BenchModel
import Glibc
import RxSchedulers
import Synchronization

/// The waits that pace a workload's threads (a producer's next slot, a flood's back-off),
/// and the CPU time those threads spent in them.
///
/// A wait sleeps while its deadline is more than 200 µs away, then yields in a loop, so a
/// paced producer hits its slot within a few microseconds. The yielding costs processor
/// time, and how much depends on the machine, not on the code measured: on an idle machine
/// `sched_yield` returns at once and the thread spins for the whole of its last 200 µs; on a
/// busy one it gives the processor away. Counted as the trial's CPU time, it made the
/// one-producer paced cases' `cpu_ns_per_event` 5–11 times higher whenever the machine had
/// a processor to spare. So each wait reads its thread's CPU clock before and after, and
/// the runner leaves the sum (`cpuNanos`) out of a trial's CPU time, as it does the
/// sampler's.
///
/// Cost: two reads of the thread's CPU clock (system calls, a few hundred nanoseconds) per
/// wait that waits, and one more per yield; none for a deadline already past. The last read
/// comes before the final check of the deadline, so the slot is not made later by it.
package enum PacedWait {
    /// How long before its deadline a wait stops sleeping and starts yielding.
    static let spinWindowNanos: UInt64 = 200_000

    private static let waited = Atomic<UInt64>(0)

    /// CPU time spent in `wait(until:)` by every thread since the process started.
    package static var cpuNanos: UInt64 { waited.load(ordering: .relaxed) }

    /// Returns at `deadline` (a `MonotonicClock.now()` value) or just after it.
    package static func wait(until deadline: UInt64) {
        var now = MonotonicClock.now()
        guard now < deadline else { return }
        let clock = CPUClock(id: CLOCK_THREAD_CPUTIME_ID)
        let before = clock.nanoseconds ?? 0
        var after = before
        while now < deadline {
            let remaining = deadline - now
            if remaining > spinWindowNanos {
                usleep(UInt32((remaining - spinWindowNanos * 3 / 4) / 1_000))
            } else {
                sched_yield()
            }
            after = clock.nanoseconds ?? after
            now = MonotonicClock.now()
        }
        if after > before { waited.add(after - before, ordering: .relaxed) }
    }
}
