import Synchronization

/// The deliveries in flight to observers that are called without the owner's lock and
/// without a retain, and the parking of observers removed meanwhile (`PublishSubject`).
///
/// A delivery counts itself in (`enter`), reads the observer from an atomic reference the
/// owner publishes, calls it, and counts itself out (`leave`). Whoever changes the
/// observers does so under the owner's lock, publishes the new reference, and then asks
/// `parkIfDelivering()`: while deliveries are in flight, what it removed may be in use, so
/// it parks it instead of releasing it, and the delivery that leaves last collects it
/// (`leave` returns `true`; the owner then takes its lock and `takeParked()`).
///
/// The word: bit 0 says something was parked, the bits above count deliveries in flight.
/// Per delivery: two atomic read-modify-writes and a load, where a lock, a retain and a
/// release cost three read-modify-writes.
///
/// ## Memory ordering
/// - The delivery and the remover form a store-load pattern: the delivery writes the count
///   and then reads the reference; the remover writes the reference and then reads the
///   count. Both are sequentially consistent (`enter`'s add and the reference's load; the
///   reference's store and `parkIfDelivering`'s load and compare-and-swap), so at least one
///   side sees the other: the remover sees the delivery counted and parks, or the delivery
///   reads the new reference and never the removed one. On x86 the delivery's add is a
///   locked instruction either way and the remover's store becomes an exchange.
/// - `leave` releases, and a remover's or collector's read of a zero count acquires: every
///   use of an observer by a delivery that left happens before its release.
/// - The mark is set only while the count is not zero, by a compare-and-swap on the same
///   word, so the delivery that brings the count to zero sees it in the value its subtract
///   returns. A delivery that enters after the mark was set cannot hold what was parked
///   (it reads the reference published before the parking), so the mark is cleared, and
///   what was parked released, as soon as the count is zero once.
@usableFromInline
final class DeliveryCount: @unchecked Sendable {
    @usableFromInline let word = Atomic<Int>(0)

    @inlinable static var parkedBit: Int { 1 }
    /// One delivery in flight.
    @inlinable static var delivery: Int { 2 }

    @usableFromInline init() {}

    /// Counts a delivery in, before it reads the observer's reference.
    @inlinable
    func enter() {
        word.wrappingAdd(Self.delivery, ordering: .sequentiallyConsistent)
    }

    /// Counts a delivery out. Returns `true` when it was the last one in flight and
    /// something was parked meanwhile: the caller then collects it (`takeParked()`,
    /// under the owner's lock).
    @inlinable
    func leave() -> Bool {
        word.wrappingSubtract(Self.delivery, ordering: .releasing).newValue == Self.parkedBit
    }

    /// Under the owner's lock, after publishing the reference without what it removed:
    /// whether deliveries are in flight, in which case the caller parks what it removed
    /// (it may be in use) and this marks the word so that the last delivery collects it.
    /// When it returns `false`, no delivery uses anything removed, and it may be released.
    @usableFromInline
    func parkIfDelivering() -> Bool {
        var current = word.load(ordering: .sequentiallyConsistent)
        while current >= Self.delivery {
            if current & Self.parkedBit != 0 { return true }
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current | Self.parkedBit, ordering: .sequentiallyConsistent)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Under the owner's lock: whether what was parked may be released now (no delivery
    /// in flight); clears the mark if so.
    @usableFromInline
    func takeParked() -> Bool {
        let current = word.load(ordering: .acquiring)
        guard current == Self.parkedBit else { return false }
        // Deliveries may enter meanwhile; they cannot hold anything parked (see above).
        word.wrappingSubtract(Self.parkedBit, ordering: .relaxed)
        return true
    }
}
