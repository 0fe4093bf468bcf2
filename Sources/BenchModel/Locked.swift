import Foundation

/// A value that threads share under a lock, for state an atomic cannot hold. Every access
/// goes through `withLock`, so a class that keeps its mutable state in `Locked` properties
/// is `Sendable` as the compiler checks it, without an `@unchecked` of its own. (Where a
/// lock orders a sequence of steps rather than guarding one value, as in the stress
/// scenarios and the run recorder, the class holds an `NSLock` and says what it guards.)
///
/// Built on `NSLock` (a pthread mutex), not `Synchronization.Mutex`: ThreadSanitizer
/// follows pthread locks, but not the futex of this toolchain's prebuilt Mutex, under which
/// it reports every guarded access as a race (a counter appended to from 8 threads under
/// `Mutex.withLock` fails `swift test --sanitize=thread` on Swift 6.3.1 here). Costs an
/// uncontended lock and unlock, about 20 ns, per access.
package final class Locked<Value>: @unchecked Sendable {
    // Safe to share: `value` is read and written only inside `withLock`, under `lock`, and
    // the initial value is handed over (`sending`), as `Mutex` takes it.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock. `body` must not call `withLock` on the
    /// same instance (the lock is not recursive).
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
