import Foundation
import Synchronization

/// Time this process lost to other processes: how long its threads, wanting to run, waited
/// for a processor that others held. Every stress deadline (the hang watchdog's and the
/// scenarios' bounded waits, `StallCompensatedDeadline`) moves by it, so a scenario on a
/// machine shared with busy processes, or run at a lower priority than them, is judged on
/// the time it could use, not on the wall clock.
///
/// The total only grows while a `StarvationMeter` samples (the stress runner's watchdog
/// does, every 100 ms while a scenario runs); elsewhere it stays put and deadlines run on
/// the wall clock.
enum Starvation {
    private static let total = Atomic<UInt64>(0)

    /// Nanoseconds lost since the process started sampling; only grows.
    static var lost: UInt64 { total.load(ordering: .relaxed) }

    /// Adds `nanoseconds` lost in the interval just sampled.
    static func record(_ nanoseconds: UInt64) {
        total.add(nanoseconds, ordering: .relaxed)
    }

    /// The time lost in an interval of `interval` ns, from how long the process's threads
    /// waited in a run queue in it (`waited`, summed over threads) and the share of the
    /// machine's processor time that other processes used (`othersShare`, 0…1; another
    /// tenant's steal included).
    ///
    /// Only the part of the waiting that other processes account for is lost time: threads
    /// of this process queueing behind each other (more runnable threads than processors,
    /// or a thread that spins where it should not) are the scenario's own doing, so a
    /// spinning hang on an idle machine loses nothing and its deadline passes on time. A
    /// blocked process (nothing runnable) loses nothing either, and a thread that wakes now
    /// and then loses only its wake-up delays. Never more than the interval.
    static func lost(interval: UInt64, waited: UInt64, othersShare: Double) -> UInt64 {
        let share = min(max(othersShare, 0), 1)
        return min(UInt64(Double(waited) * share), interval)
    }
}

/// Samples the kernel's scheduler statistics of this process's threads
/// (`/proc/self/task/*/schedstat`: time on a processor, time waiting in a run queue) and
/// the machine's processor time (`/proc/stat`), and records the time lost between samples
/// in `Starvation`. A sample reads one small file per thread (not timed), so it is taken
/// every 100 ms by the watchdog, never on a measured path. Where the
/// files are missing (not Linux, or a kernel without schedstats) it records nothing.
struct StarvationMeter {
    private struct ThreadTimes {
        var ran: UInt64
        var waited: UInt64
    }

    private struct MachineTimes {
        var busy: UInt64
        var total: UInt64
    }

    private var threads: [pid_t: ThreadTimes] = [:]
    private var machine: MachineTimes?
    private var lastReading: UInt64
    private static let nanosecondsPerTick = 1e9 / Double(max(sysconf(Int32(_SC_CLK_TCK)), 1))

    init(now: UInt64) {
        lastReading = now
        _ = sample(now: now)
    }

    /// Reads the statistics and records the time lost since the previous sample; returns it.
    @discardableResult
    mutating func sample(now: UInt64) -> UInt64 {
        let interval = now &- lastReading
        lastReading = now
        var ran: UInt64 = 0
        var waited: UInt64 = 0
        var current: [pid_t: ThreadTimes] = [:]
        current.reserveCapacity(threads.count)
        for tid in CPUClock.threadIDs() {
            guard let fields = Self.numbers(in: "/proc/self/task/\(tid)/schedstat", count: 2) else { continue }
            let times = ThreadTimes(ran: fields[0], waited: fields[1])
            let before = threads[tid] ?? ThreadTimes(ran: 0, waited: 0)
            ran &+= times.ran &- min(before.ran, times.ran)
            waited &+= times.waited &- min(before.waited, times.waited)
            current[tid] = times
        }
        let previousMachine = machine
        threads = current
        machine = Self.machineTimes()
        guard let previousMachine, let machine, machine.total > previousMachine.total else { return 0 }
        let machineBusy = Double(machine.busy &- previousMachine.busy) * Self.nanosecondsPerTick
        let machineTotal = Double(machine.total &- previousMachine.total) * Self.nanosecondsPerTick
        let othersShare = (machineBusy - Double(ran)) / machineTotal
        let lost = Starvation.lost(interval: interval, waited: waited, othersShare: othersShare)
        Starvation.record(lost)
        return lost
    }

    /// The first line of `/proc/stat`, in clock ticks summed over processors: busy is
    /// everything but idle and I/O wait (another tenant's steal counts as busy).
    private static func machineTimes() -> MachineTimes? {
        guard let fields = numbers(in: "/proc/stat", count: 8, skippingWords: 1) else { return nil }
        let total = fields.reduce(0, &+)
        return MachineTimes(busy: total &- fields[3] &- fields[4], total: total)
    }

    /// The first `count` decimal numbers of the file at `path`, after `skippingWords` words;
    /// nil when it cannot be read or has fewer.
    static func numbers(in path: String, count: Int, skippingWords: Int = 0) -> [UInt64]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer -> [UInt64]? in
            let length = read(descriptor, buffer.baseAddress, buffer.count)
            guard length > 0 else { return nil }
            return parse(UnsafeBufferPointer(rebasing: buffer[..<length]), count: count, skippingWords: skippingWords)
        }
    }

    /// Parses the first `count` decimal numbers of space-separated `text` after `skippingWords` words.
    static func parse(_ text: UnsafeBufferPointer<UInt8>, count: Int, skippingWords: Int) -> [UInt64]? {
        var values: [UInt64] = []
        values.reserveCapacity(count)
        var words = 0
        var index = 0
        while index < text.count, values.count < count {
            while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\n") { index += 1 }
            guard index < text.count else { break }
            var value: UInt64 = 0
            var numeric = true
            while index < text.count, text[index] != UInt8(ascii: " "), text[index] != UInt8(ascii: "\n") {
                let byte = text[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                } else {
                    numeric = false
                }
                index += 1
            }
            words += 1
            if words <= skippingWords { continue }
            guard numeric else { return nil }
            values.append(value)
        }
        return values.count == count ? values : nil
    }
}
