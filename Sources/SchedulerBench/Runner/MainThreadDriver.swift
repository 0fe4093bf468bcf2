import Foundation
import Synchronization

/// Runs the cases on a driver thread while the main thread runs `RunLoop.main`, so
/// main-queue work (MainScheduler, `DispatchQueue.main.async`) runs as in an app.
/// On Linux the main queue only runs while the main thread runs its RunLoop.
public enum MainThreadDriver {
    /// Call on the main thread. Returns `work`'s result once it finishes.
    public static func run<Result>(_ work: @escaping () -> Result) -> Result {
        precondition(Thread.isMainThread, "MainThreadDriver.run must be called on the main thread")
        let finished = Atomic<Bool>(false)
        let box = ResultBox<Result>()
        let driver = Thread {
            box.value = work()
            finished.store(true, ordering: .releasing)
            DispatchQueue.main.async {}  // wakes the run loop
        }
        driver.name = "schedbench.driver"
        driver.stackSize = 8 << 20
        // A timer far in the future keeps the run loop from returning at once when it has no other source.
        let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .default)
        driver.start()
        while !finished.load(ordering: .acquiring) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
        }
        keepAlive.invalidate()
        return box.value!
    }
}

private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
