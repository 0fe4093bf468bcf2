import Glibc

/// A CPU-time clock of the kernel: how long a process or one thread has run on a processor,
/// in nanoseconds, however long it waited for one. Unlike wall time it does not stretch
/// when a busy neighbour takes the processor, which is why `cpu_ns_per_event` can judge a
/// single-threaded case on a shared machine (see "Statistical methods").
struct CPUClock: Sendable, Equatable {
    let id: clockid_t

    /// Every thread of this process together, as the kernel last accounted them: exact for
    /// the calling thread and for threads that are asleep or gone, but a thread running on
    /// another processor is counted only up to its last scheduler tick (up to 4 ms behind
    /// here). `processUpToDate()` brings those up to date first.
    static let process = CPUClock(id: CLOCK_PROCESS_CPUTIME_ID)

    /// The calling thread's own clock, as an id any thread of the process can read (the
    /// thread must still be running when it is read).
    static func currentThread() -> CPUClock? {
        var id = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &id) == 0 else { return nil }
        return CPUClock(id: id)
    }

    /// The clock of the thread of this process with kernel thread id `tid`, in the kernel's
    /// encoding of per-thread CPU clocks (the one `pthread_getcpuclockid` returns:
    /// `~tid << 3`, with the per-thread bit and the scheduler-time clock).
    init(thread tid: pid_t) {
        id = clockid_t(truncatingIfNeeded: (~Int32(tid)) << 3) | 4 | 2
    }

    init(id: clockid_t) {
        self.id = id
    }

    /// The clock's reading, or nil when the kernel refuses it (an ended thread's clock).
    var nanoseconds: UInt64? {
        var time = timespec()
        guard clock_gettime(id, &time) == 0 else { return nil }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The process's CPU time with every thread's share current, and what reading it cost
    /// the calling thread. Reading a thread's own clock makes the kernel account that
    /// thread's time up to now, even on another processor, so each live thread's clock is
    /// read first (the threads listed in `/proc/self/task`), then the process clock. Without
    /// it, a worker that ran a whole trial of a few milliseconds between two ticks and is
    /// still on its processor (finishing, or on its way to exit) when the trial ends would be
    /// missing from the trial's CPU time. `readingCost` is the calling thread's CPU time
    /// spent listing and reading (tens of microseconds), included in `nanoseconds`: a span
    /// that ends with this reading subtracts it (`ResourceUsage.-`).
    static func processUpToDate() -> (nanoseconds: UInt64, readingCost: UInt64)? {
        guard let own = currentThread(), let ownBefore = own.nanoseconds else {
            return process.nanoseconds.map { ($0, 0) }
        }
        for tid in threadIDs() { _ = CPUClock(thread: tid).nanoseconds }
        guard let ownAfter = own.nanoseconds, let total = process.nanoseconds else { return nil }
        return (total, ownAfter &- ownBefore)
    }

    /// The kernel thread ids of this process's threads, from `/proc/self/task`.
    static func threadIDs() -> [pid_t] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var ids: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let id = pid_t(name) { ids.append(id) }
        }
        return ids
    }
}
