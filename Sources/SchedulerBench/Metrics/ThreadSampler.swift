import BenchModel
import Foundation
import Synchronization

/// Samples the process's thread count on a background thread while a trial runs and
/// keeps the peak. One `/proc/self/status` read every `interval` (default 10 ms, ~0.2%
/// of one core); the sampler's own thread is not counted, and its CPU time can be read
/// (`cpuNanos`) so that a trial's CPU time can leave it out.
final class ThreadSampler: Sendable {
    private let interval: TimeInterval
    private let running = Atomic<Bool>(false)
    private let peak = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    /// The sampler thread's CPU clock id, published before `start` returns; `Int.min` when
    /// there is none (a thread clock id is a negative `Int32`, so -1 cannot mark "none").
    private let clockID = Atomic<Int>(Int.min)

    init(interval: TimeInterval = 0.010) {
        self.interval = interval
    }

    /// Starts sampling; returns once the sampler thread has taken its first sample (so
    /// `cpuNanos` can be read, and the thread's start-up and first `/proc` read, the
    /// costliest, are behind a trial that begins after it).
    func start() {
        peak.store(ProcessStatus.current()?.threads ?? 0, ordering: .relaxed)
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            clockID.store(CPUClock.currentThread().map { Int($0.id) } ?? .min, ordering: .releasing)
            sample()
            started.signal()
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard running.load(ordering: .acquiring) else { break }
                sample()
            }
            stopped.signal()
        }
        thread.name = "schedbench.threads"
        thread.start()
        started.wait()
    }

    /// The CPU time the sampler thread has used so far, in nanoseconds (0 before `start` or
    /// where the kernel has no per-thread clock). Read it between `start` and `stop`: the
    /// thread's clock ends with it.
    var cpuNanos: UInt64 {
        let id = clockID.load(ordering: .acquiring)
        return id == .min ? 0 : CPUClock(id: clockid_t(id)).nanoseconds ?? 0
    }

    private func sample() {
        if let threads = ProcessStatus.current()?.threads {
            _ = peak.max(threads - 1, ordering: .relaxed)
        }
    }

    /// The peak the background samples have seen so far (sampler excluded).
    var peakSoFar: Int { peak.load(ordering: .relaxed) }

    /// Stops sampling and returns the peak thread count seen (sampler excluded).
    func stop() -> Int {
        sample()
        running.store(false, ordering: .releasing)
        stopped.wait()
        return peak.load(ordering: .relaxed)
    }
}
