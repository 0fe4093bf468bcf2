import BenchModel
import CProcess
import Foundation
import RxSchedulers
import Synchronization

/// Dedicated producer threads that start together: each runs `body(index)` once the
/// gate opens, so thread creation stays outside the timed region.
///
/// Threads come from `pthread_create` directly, so that a process out of threads (or of
/// address space for their stacks) is an error saying how many started, not a crash: the
/// ones that did start are released without running `body`, and the case cannot run.
package final class ProducerThreads: Sendable {
    private let startGate = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let count: Int
    /// Set when the threads are released without running (creation failed part way).
    private let abandoned = AbandonFlag()

    package init(count: Int, name: String, stackSize: Int = 1 << 20, body: @escaping @Sendable (Int) -> Void) throws {
        self.count = count
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        for index in 0..<count {
            finished.enter()
            let start = ThreadStart { [startGate, finished, abandoned] in
                startGate.wait()
                if !abandoned.isSet { body(index) }
                finished.leave()
            }
            let context = Unmanaged.passRetained(start).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(
                &thread, &attributes,
                { context in
                    Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<ThreadStart>.fromOpaque(context).release()
                finished.leave()
                // Release the ones already waiting, without their work.
                abandoned.set()
                for _ in 0..<index { startGate.signal() }
                finished.wait()
                throw BenchError.caseCannotRun(
                    "started \(index) of \(count) \(name) threads: \(String(cString: strerror(result)).lowercased())")
            }
            _ = schedbench_name_thread(thread, "\(name.split(separator: ".").last ?? "").\(index)")
        }
    }

    /// Opens the gate and returns the time it opened.
    package func start() -> UInt64 {
        let now = MonotonicClock.now()
        for _ in 0..<count { startGate.signal() }
        return now
    }

    /// Waits for every producer to return; false on timeout.
    package func join(timeout: TimeInterval) -> Bool {
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

/// A thread's work, handed to `pthread_create` as its context.
private final class ThreadStart {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private final class AbandonFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
