import BenchModel
import Foundation
import Synchronization

/// Runs the cases on a driver thread while the main thread runs `RunLoop.main`, so
/// main-queue work (MainScheduler, `DispatchQueue.main.async`) runs as in an app.
/// On Linux the main queue only runs while the main thread runs its RunLoop.
package enum MainThreadDriver {
    /// Call on the main thread. Returns `work`'s result once it finishes.
    package static func run<Result>(_ work: @escaping () -> Result) -> Result {
        precondition(Thread.isMainThread, "MainThreadDriver.run must be called on the main thread")
        // The work runs on the driver thread and returns its result to this one, which waits
        // for it: handed over once, never shared.
        nonisolated(unsafe) let work = work
        let finished = Atomic<Bool>(false)
        let box = ResultBox<Result>()
        let driver = Thread {
            driving.store(true, ordering: .releasing)
            box.value = work()
            driving.store(false, ordering: .releasing)
            finished.store(true, ordering: .releasing)
            DispatchQueue.main.async {}  // wakes the run loop
        }
        driver.name = "schedbench.driver"
        driver.stackSize = 8 << 20
        // A timer far in the future keeps the run loop from returning at once when it has no other source.
        let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .default)
        driver.start()
        // No polling timeout: the main thread sleeps until a source fires (main-queue work or
        // the driver's wake-up block), so an idle main thread executes nothing. A trial counted
        // under callgrind counts every thread, and periodic wake-ups would add a count that
        // depends on how long the trial took. The driver's block stays queued until the run
        // loop serves it, so the wake-up cannot be lost between the check and the sleep.
        while !finished.load(ordering: .acquiring) {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
        keepAlive.invalidate()
        return box.value!
    }

    /// Whether `run` is running work on its driver thread.
    private static let driving = Atomic<Bool>(false)

    /// The system calls the main thread sleeps in while its run loop waits for work, by
    /// their Linux numbers: CoreFoundation's run loop waits in `ppoll` on its epoll
    /// descriptor; `poll`, `epoll_wait` and `epoll_pwait` would be the same wait in another
    /// build of it.
    #if arch(x86_64)
    private static let runLoopWaits: Set<Int> = [271, 7, 232, 281]
    #else
    private static let runLoopWaits: Set<Int> = [73, 22]  // arm64 has only ppoll and epoll_pwait
    #endif

    /// Waits until the main thread sleeps in its run loop, for at most `timeout` seconds;
    /// returns at once when `run` is not driving. Call on the driver thread before a region
    /// whose instructions are counted: callgrind counts every thread, and the main thread
    /// runs a little after each block it serves (leaving the block, re-entering the run
    /// loop). Reads `/proc/self/task/<main>/syscall` every 100 µs. Returns whether the
    /// main thread was seen idle (false when it was not driving or did not go idle in time).
    @discardableResult
    static func waitUntilMainThreadIsIdle(timeout: Double) -> Bool {
        guard driving.load(ordering: .acquiring) else { return false }
        let main = getpid()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let number = BlockingSyscall.number(ofThread: main), runLoopWaits.contains(number) { return true }
            usleep(100)
        }
        return false
    }
}

private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
