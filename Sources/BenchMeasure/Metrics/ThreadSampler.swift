import BenchModel
import Foundation
import Synchronization

/// Samples the process's thread count on a background thread while a trial runs and
/// keeps the peak. One `/proc/self/status` read every `interval` (default 10 ms, ~0.2%
/// of one core); the sampler's own thread is not counted.
final class ThreadSampler: Sendable {
    private let interval: TimeInterval
    private let running = Atomic<Bool>(false)
    private let peak = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)

    init(interval: TimeInterval = 0.010) {
        self.interval = interval
    }

    func start() {
        peak.store(ProcessStatus.current()?.threads ?? 0, ordering: .relaxed)
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                if let threads = ProcessStatus.current()?.threads {
                    _ = peak.max(threads - 1, ordering: .relaxed)
                }
                Thread.sleep(forTimeInterval: interval)
            }
            stopped.signal()
        }
        thread.name = "schedbench.threads"
        thread.start()
    }

    /// The peak the background samples have seen so far (sampler excluded).
    var peakSoFar: Int { peak.load(ordering: .relaxed) }

    /// Stops sampling and returns the peak thread count seen (sampler excluded).
    func stop() -> Int {
        if let threads = ProcessStatus.current()?.threads {
            _ = peak.max(threads - 1, ordering: .relaxed)
        }
        running.store(false, ordering: .releasing)
        stopped.wait()
        return peak.load(ordering: .relaxed)
    }
}
