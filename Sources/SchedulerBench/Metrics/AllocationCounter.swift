import BenchModel
/// Cumulative allocation requests and bytes of the whole process, from jemalloc's
/// statistics (`mallctl`), summed over every arena.
///
/// Exact only with thread caches off: jemalloc merges a thread cache's request count into
/// the arena statistics only when that cache fills or flushes, so a thread allocating and
/// freeing in a loop would show nothing. The runner therefore counts allocations in a child
/// process started with `MALLOC_CONF=tcache:false` (`environment`), in an extra untimed
/// trial; timed trials keep the caches on. A snapshot refreshes jemalloc's `epoch` (~21 µs)
/// and reads ~270 counters by name (~40 µs): take them outside timed regions.
///
/// Bytes are counted by size class (a 100-byte request counts as its 112-byte class).
package enum AllocationCounter {
    struct Snapshot: Sendable, Equatable {
        var requests: UInt64
        var bytes: UInt64

        static func - (lhs: Snapshot, rhs: Snapshot) -> Snapshot {
            Snapshot(requests: lhs.requests &- rhs.requests, bytes: lhs.bytes &- rhs.bytes)
        }
    }

    /// jemalloc's `mallctl`, handed over before `main` by an executable that links jemalloc
    /// (the SchedulerBench product's allocator target: `schedbench_register_mallctl`). Nil
    /// means allocations cannot be counted here (the runtime's tests, ThreadSanitizer).
    package typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32
    nonisolated(unsafe) package static var mallctl: Mallctl?

    /// The environment under which a child process counts exactly.
    static let environment = ["MALLOC_CONF": "tcache:false"]

    /// Whether this process counts exactly: jemalloc serves `malloc` (not, say,
    /// ThreadSanitizer's runtime), keeps statistics, and runs without thread caches.
    static let isExact: Bool = {
        guard mallctl != nil, refreshEpoch(), let tcache = readBool("opt.tcache"), !tcache, let before = snapshot() else { return false }
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 48, alignment: 16)
        probe.storeBytes(of: 1, as: UInt8.self)
        probe.deallocate()
        guard let after = snapshot() else { return false }
        return after.requests > before.requests
    }()

    /// Current cumulative counters, or nil when jemalloc statistics are unavailable.
    static func snapshot() -> Snapshot? {
        guard refreshEpoch() else { return nil }
        // Arena index 4096 is MALLCTL_ARENAS_ALL: the sum over arenas.
        var requests: UInt64 = 0
        var bytes: UInt64 = 0
        for bin in 0..<Int(read32("arenas.nbins") ?? 0) {
            let count = read64("stats.arenas.4096.bins.\(bin).nrequests") ?? 0
            requests &+= count
            bytes &+= count &* UInt64(readSize("arenas.bin.\(bin).size") ?? 0)
        }
        for extent in 0..<Int(read32("arenas.nlextents") ?? 0) {
            let count = read64("stats.arenas.4096.lextents.\(extent).nrequests") ?? 0
            guard count > 0 else { continue }
            requests &+= count
            bytes &+= count &* UInt64(readSize("arenas.lextent.\(extent).size") ?? 0)
        }
        return Snapshot(requests: requests, bytes: bytes)
    }

    private static func refreshEpoch() -> Bool {
        guard let mallctl else { return false }
        var current: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        var next: UInt64 = 1
        return mallctl("epoch", &current, &size, &next, MemoryLayout<UInt64>.size) == 0
    }

    private static func read<Value: FixedWidthInteger>(_ name: String, as type: Value.Type) -> Value? {
        guard let mallctl else { return nil }
        var value: Value = 0
        var size = MemoryLayout<Value>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }

    private static func read64(_ name: String) -> UInt64? { read(name, as: UInt64.self) }
    private static func read32(_ name: String) -> UInt32? { read(name, as: UInt32.self) }
    private static func readSize(_ name: String) -> Int? { read(name, as: Int.self) }
    private static func readBool(_ name: String) -> Bool? { read(name, as: UInt8.self).map { $0 != 0 } }
}

/// Called before `main` by the allocator target that links jemalloc into a SchedulerBench
/// executable, with jemalloc's `mallctl`; not for use in code. (A C function, so that the
/// allocator target needs no import of the runtime.)
@_cdecl("schedbench_register_mallctl")
public func _schedbenchRegisterMallctl(
    _ mallctl: (@convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32)?
) {
    AllocationCounter.mallctl = mallctl
}
