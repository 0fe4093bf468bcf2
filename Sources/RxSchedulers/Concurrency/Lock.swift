#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex (~20 ns per uncontended lock/unlock pair here; allocated once per
/// lock, unlike `NSLock`, which on Linux also allocates a condition variable).
///
/// Not `Synchronization.Mutex`: on Linux its futex path lives in the prebuilt standard
/// library, which ThreadSanitizer cannot see, so every critical section guarded by it
/// is reported as a race. pthread mutexes are intercepted by TSan, keeping
/// `swift test --sanitize=thread` meaningful.
///
/// A recursive lock may be taken again by the thread holding it: operators that
/// forward events while locked (merge, switch, throttle, …) need that, because
/// downstream code may synchronously feed events back into the same operator.
@usableFromInline
final class Lock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable func lock() { pthread_mutex_lock(mutex) }
    @inlinable func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` while holding the lock.
    @inlinable
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
