import BenchModel
import Foundation

/// Starting children under real-time scheduling: `SCHED_FIFO`, the child and every thread
/// it starts, at `priority`.
///
/// Why the instruction-counting children ask for it: valgrind runs one of a process's
/// threads at a time, and which one runs next after a wake-up depends on whether the
/// kernel lets the woken thread preempt the one that woke it, which depends on what else
/// the processor runs. Under `SCHED_FIFO` on one processor a woken thread never preempts
/// one of its own priority, and no normal thread preempts either, so the threads take
/// turns in one order whatever the machine's load. `subscribeOn.cycle` on `mainAsync`,
/// six counts a side alternating, beside two busy loops: 39,636–39,747 instructions an
/// event under the normal scheduler, 40,341.9–40,345.0 under `SCHED_FIFO`, and
/// 40,341.2–40,345.5 under it idle (docs/performance/journal.md, "2026-12-03").
///
/// The cost: such a process keeps its processor from normal threads for as long as it
/// runs, up to the kernel's real-time limit (`/proc/sys/kernel/sched_rt_runtime_us`, 95%
/// by default). Starting one needs `CAP_SYS_NICE` or a real-time priority limit
/// (`ulimit -r`) of at least `priority`; a container usually has neither.
package enum RealTimeScheduling {
    /// The priority counting children run at: the lowest real-time one.
    package static let priority: Int32 = 1

    /// Nil when this process may start children under `SCHED_FIFO` at `priority`, else why
    /// not, in words. Found once, the first time it is asked, by starting `/bin/true` so;
    /// children inherit the credentials and limits that decide it, so a gate's two sides
    /// learn the same.
    package static let refusal: String? = refusal(at: priority)

    /// How the instruction-counting children of a run with `options` are scheduled, in
    /// words, for `run` and `gate` to say before they count.
    package static func countingScheduler(_ options: RunOptions, refusal: String? = refusal) -> String {
        guard options.countUnderRealTime else {
            return "instructions are counted under the normal scheduler, as asked (--no-real-time-counting): cross-thread counts move with the machine's load"
        }
        if let refusal {
            return "instructions are counted under the normal scheduler, because \(refusal): cross-thread counts move with the machine's load"
        }
        return "instructions are counted under real-time scheduling (SCHED_FIFO at priority \(priority)), "
            + "each counting process keeping its processor from other work while it runs"
    }

    /// Sets `attributes` to start a child under `SCHED_FIFO` at `priority`; returns the
    /// flag to add to the attributes' flags.
    static func apply(priority: Int32, to attributes: inout posix_spawnattr_t) -> Int32 {
        posix_spawnattr_setschedpolicy(&attributes, SCHED_FIFO)
        var parameters = sched_param()
        parameters.sched_priority = priority
        posix_spawnattr_setschedparam(&attributes, &parameters)
        return Int32(POSIX_SPAWN_SETSCHEDULER)
    }

    /// Nil when starting `/bin/true` under `SCHED_FIFO` at `priority` succeeds, else why it
    /// failed.
    static func refusal(at priority: Int32) -> String? {
        let executable = "/bin/true"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(apply(priority: priority, to: &attributes)))
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { free(argv[0]) }
        let result = posix_spawn(&pid, executable, nil, &attributes, argv, environ)
        guard result == 0 else {
            return "starting a process under SCHED_FIFO at priority \(priority) failed: \(String(cString: strerror(result)))"
                + (result == EPERM ? " (it needs CAP_SYS_NICE or `ulimit -r` of at least \(priority))" : "")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return nil
    }
}
