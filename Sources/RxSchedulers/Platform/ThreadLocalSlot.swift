#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One object per thread, kept under a pthread key (~5 ns per read, against 1.6–2.5 µs
/// for `Thread.current.threadDictionary` on Linux). The object is created on a thread's
/// first read and released when the thread exits.
final class ThreadLocalSlot<Value: AnyObject>: @unchecked Sendable {
    /// A `let`, so reading it costs no exclusivity check (a `var` here cost one per read).
    private let key: pthread_key_t
    private let make: () -> Value

    init(make: @escaping () -> Value) {
        self.make = make
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed with \(status)")
        self.key = key
    }

    /// This thread's object, created on first use.
    @inline(__always)
    var value: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        let created = make()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }
}
