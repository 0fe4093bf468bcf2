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
/// a processor to spare. So a wait reads its thread's CPU clock after each sleep or yield
/// and adds what that step used to `cpuNanos`, and the runner leaves what the sum gained
/// during a trial out of the trial's CPU time, as it does the sampler's. Counted step by
/// step, a wait that was already under way when a trial began (a thread of an earlier
/// trial that has not yet stopped) adds only what it used after that, so a trial never
/// leaves out CPU time from before it began.
///
/// Cost: a read of the thread's CPU clock (a system call, a few hundred nanoseconds) per
/// wait that waits, and a read and a relaxed atomic add per sleep or yield; none for a
/// deadline already past. The last read comes before the final check of the deadline, so
/// the slot is not made later by it.
package enum PacedWait {
    /// How long before its deadline a wait stops sleeping and starts yielding.
    static let spinWindowNanos: UInt64 = 200_000

    private static let waited = Atomic<UInt64>(0)

    /// CPU time spent in `wait(until:)` by every thread since the process started, up to
    /// each waiting thread's last sleep or yield.
    package static var cpuNanos: UInt64 { waited.load(ordering: .relaxed) }

    /// Returns at `deadline` (a `MonotonicClock.now()` value) or just after it.
    package static func wait(until deadline: UInt64) {
        let clock = CPUClock(id: CLOCK_THREAD_CPUTIME_ID)
        wait(
            until: deadline, now: MonotonicClock.now, threadCPU: { clock.nanoseconds },
            pause: { remaining in
                if remaining > spinWindowNanos {
                    usleep(UInt32((remaining - spinWindowNanos * 3 / 4) / 1_000))
                } else {
                    sched_yield()
                }
            },
            count: { waited.add($0, ordering: .relaxed) })
    }

    /// The wait's loop over its clocks: `pause` sleeps or yields for the time still to go,
    /// and `count` receives the thread CPU time each pause used, as soon as it is read.
    @inline(__always)
    static func wait(
        until deadline: UInt64, now: () -> UInt64, threadCPU: () -> UInt64?, pause: (UInt64) -> Void,
        count: (UInt64) -> Void
    ) {
        var time = now()
        guard time < deadline else { return }
        var counted = threadCPU() ?? 0
        while time < deadline {
            pause(deadline - time)
            if let used = threadCPU(), used > counted {
                count(used - counted)
                counted = used
            }
            time = now()
        }
    }
}
