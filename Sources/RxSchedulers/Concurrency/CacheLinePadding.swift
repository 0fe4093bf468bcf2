/// 128 bytes of nothing, declared between stored properties that different threads write,
/// so they do not share a cache line (128, not 64: x86 prefetches lines in adjacent pairs).
///
/// Without it a consumer's per-event write and a producer's per-event atomic on the same
/// line bounce that line between the cores on every event ("false sharing"). Swift lays
/// out a class's stored properties in declaration order, which is what this relies on.
@frozen
@usableFromInline
struct CacheLinePadding {
    @usableFromInline
    var bytes:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() {}
}
