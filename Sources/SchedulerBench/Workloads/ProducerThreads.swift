import Foundation
import RxSchedulers

/// Dedicated producer threads that start together: each runs `body(index)` once the
/// gate opens, so thread creation stays outside the timed region.
final class ProducerThreads: @unchecked Sendable {
    private let startGate = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let count: Int

    init(count: Int, name: String, body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        for index in 0..<count {
            finished.enter()
            let thread = Thread { [startGate, finished] in
                startGate.wait()
                body(index)
                finished.leave()
            }
            thread.name = "\(name).\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Opens the gate and returns the time it opened.
    func start() -> UInt64 {
        let now = MonotonicClock.now()
        for _ in 0..<count { startGate.signal() }
        return now
    }

    /// Waits for every producer to return; false on timeout.
    func join(timeout: TimeInterval) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }
}

/// How long a trial may take before the harness gives up on it and reports a violation:
/// generous (a stuck trial is a bug, not a slow case), and growing with the event count.
func trialTimeout(events: Int, nanosPerEvent: Double = 50_000) -> TimeInterval {
    max(30, Double(events) * nanosPerEvent / 1e9)
}

extension DispatchSemaphore {
    /// Waits up to `seconds`; on timeout records a violation describing `what` and returns false.
    func wait(seconds: TimeInterval, orReport report: InvariantReport, _ what: @autoclosure () -> String) -> Bool {
        if wait(timeout: .now() + seconds) == .success { return true }
        report.record("timed out after \(Int(seconds)) s: \(what())")
        return false
    }
}
