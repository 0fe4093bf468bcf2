import BenchModel
import Dispatch
import Glibc

/// The threads of this process, other than the main thread, that wait for events in
/// `epoll`, and whether any of them has run since they were listed.
///
/// On Linux that is libdispatch's manager thread. It runs the process's dispatch timers,
/// and from the first use of a global queue on, once a second, the worker pool's monitor
/// (`_dispatch_workq_monitor_pools`). Under callgrind one such wake-up counts about 1,400
/// instructions (1,431 in the trial diffed by function), and a trial that is counted
/// while the monitor fires has them added to its count. In 50-case counting children,
/// 40–50% of the trials held a wake-up, and the trampoline's count (120 instructions an
/// event) rose by 0.04–0.08 in 4 of 28 counts.
/// `InstructionCounter` lists these threads before a trial and asks afterwards whether one
/// of them ran.
///
/// Cost: listing reads `/proc/self/task/<tid>/syscall` of each thread (`BlockingSyscall`:
/// a few microseconds each, tens under valgrind). Asking reads each listed thread's CPU clock.
struct EventLoopThreads {
    /// Each listed thread's CPU time, in nanoseconds, when it was listed.
    let cpuTimes: [pid_t: UInt64]

    /// The threads that are blocked in `epoll_wait`, `epoll_pwait` or `epoll_pwait2` now.
    /// The main thread is left out: its run loop may wait in the same calls, and it serves
    /// the trials' own main-queue work (`MainThreadDriver` waits for it to go idle).
    ///
    /// A thread once seen waiting there is remembered for as long as it lives. When one of
    /// them is running (it has just woken, and is firing a timer or running the monitor,
    /// which may start a worker thread), this waits until it is blocked again, for at most
    /// `timeout` seconds, reading every thread's `syscall` file each 100 µs: an attempt
    /// that starts right after a wake-up would otherwise count its end. libdispatch's
    /// manager never leaves its loop, so it is back in `epoll` within milliseconds; a
    /// remembered thread still out of it at the deadline is forgotten, so that it costs
    /// one timeout at most.
    static func idle(timeout: Double) -> EventLoopThreads {
        let main = getpid()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while true {
            var calls: [pid_t: Int?] = [:]
            for tid in CPUClock.threadIDs() where tid != main { calls[tid] = BlockingSyscall.number(ofThread: tid) }
            let remembered = known.withLock { known in
                known.formIntersection(calls.keys)
                return known
            }
            let (waiting, busy) = classify(calls, remembered: remembered)
            let late = busy && DispatchTime.now().uptimeNanoseconds >= deadline
            known.withLock { known in
                known.formUnion(waiting)
                if late { known.formIntersection(waiting) }
            }
            if !busy || late {
                var cpuTimes: [pid_t: UInt64] = [:]
                for tid in waiting { cpuTimes[tid] = CPUClock(thread: tid).nanoseconds }
                return EventLoopThreads(cpuTimes: cpuTimes)
            }
            usleep(100)
        }
    }

    /// Which threads wait in an `epoll` call (`calls`: the call each thread is blocked in,
    /// nil for one that runs), and whether a `remembered` one is out of it.
    static func classify(_ calls: [pid_t: Int?], remembered: Set<pid_t>) -> (waiting: Set<pid_t>, busy: Bool) {
        let waiting = Set(calls.compactMap { tid, call in call.map { epollWaits.contains($0) } == true ? tid : nil })
        return (waiting, !remembered.subtracting(waiting).isEmpty)
    }

    /// The threads of this process seen waiting in an `epoll` call by `idle`, and still alive
    /// when it last looked.
    private static let known = Locked<Set<pid_t>>([])

    /// Whether a listed thread has run since it was listed: its CPU time moved, or it is gone.
    var anyRan: Bool {
        cpuTimes.contains { tid, time in CPUClock(thread: tid).nanoseconds != time }
    }

    /// The system call numbers of the `epoll` waits on this architecture.
    static let epollWaits: Set<Int> = {
        #if arch(x86_64)
        return [232, 281, 441]  // epoll_wait, epoll_pwait, epoll_pwait2
        #elseif arch(arm64)
        return [22, 441]  // epoll_pwait, epoll_pwait2
        #else
        return []
        #endif
    }()
}
