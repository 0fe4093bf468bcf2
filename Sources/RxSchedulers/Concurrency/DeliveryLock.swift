import Synchronization

/// A `SpinningLock` whose word also counts the deliveries in flight, so that an observer
/// can be called outside the lock without a retain: whoever removes an observer while
/// deliveries run parks it instead of releasing it, and the last delivery to finish
/// releases what was parked (`PublishSubject`).
///
/// The word: bit 0 is the lock, bit 1 says something was parked while deliveries ran, and
/// the bits above count deliveries in flight. A delivery is counted in the same atomic
/// step that gives the lock back (`unlockEnteringDelivery`), so no thread can take the
/// lock between reading an observer and counting its use.
///
/// Per delivery: the lock's compare-and-swap, one atomic add to give it back and count the
/// delivery, one atomic subtract when the call returns: three read-modify-writes, as many
/// as the lock, retain and release they replace, and about 33 instructions fewer.
///
/// ## Memory ordering
/// - `lock` acquires; `unlock` and `unlockEnteringDelivery` release (read-modify-writes,
///   not stores: deliveries end concurrently and change the count bits).
/// - `leaveDelivery` releases: a thread that later reads the count as zero (under the
///   lock, with acquire, in `parkIfDelivering` or `takeParked`) sees every use of the
///   observers by the deliveries that ended.
/// - A thread parks only with the lock held and only while the count is not zero; the
///   mark is set by a compare-and-swap on the same word, so the delivery that brings the
///   count to zero sees it in the value its subtract returns.
@usableFromInline
final class DeliveryLock: @unchecked Sendable {
    @usableFromInline let word = Atomic<Int>(0)

    @inlinable static var heldBit: Int { 1 }
    @inlinable static var parkedBit: Int { 2 }
    /// One delivery in flight.
    @inlinable static var delivery: Int { 4 }

    @usableFromInline init() {}

    @inlinable
    func lock() {
        if word.compareExchange(expected: 0, desired: Self.heldBit, ordering: .acquiring).exchanged { return }
        lockSlowly()
    }

    /// Takes the lock when deliveries are in flight (the word is not zero) or another
    /// thread holds it.
    @usableFromInline
    func lockSlowly() {
        var backoff = Backoff()
        var current = word.load(ordering: .relaxed)
        while true {
            if current & Self.heldBit == 0 {
                let (exchanged, original) = word.compareExchange(
                    expected: current, desired: current | Self.heldBit, ordering: .acquiring)
                if exchanged { return }
                current = original
            } else {
                backoff.wait()
                current = word.load(ordering: .relaxed)
            }
        }
    }

    @inlinable
    func unlock() {
        word.wrappingSubtract(Self.heldBit, ordering: .releasing)
    }

    /// Runs `body` while holding the lock.
    @inlinable
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Gives the lock back and counts one delivery in flight, in one step.
    @inlinable
    func unlockEnteringDelivery() {
        word.wrappingAdd(Self.delivery - Self.heldBit, ordering: .releasing)
    }

    /// Ends a delivery. Returns `true` when it was the last one in flight and something
    /// was parked meanwhile: the caller then takes the lock and `takeParked()`.
    @inlinable
    func leaveDelivery() -> Bool {
        let after = word.wrappingSubtract(Self.delivery, ordering: .releasing).newValue
        return after & ~Self.heldBit == Self.parkedBit
    }

    /// With the lock held: whether deliveries are in flight, in which case the caller must
    /// park what it removed (it may be in use) and this marks the word so that the last
    /// delivery collects it. When it returns `false`, no delivery uses anything the caller
    /// removed, and it may release it.
    @usableFromInline
    func parkIfDelivering() -> Bool {
        var current = word.load(ordering: .acquiring)
        while current >= Self.delivery {
            if current & Self.parkedBit != 0 { return true }
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current | Self.parkedBit, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// With the lock held: whether what was parked may be released now (no delivery is in
    /// flight); clears the mark if so. Deliveries start only under the lock, so none can
    /// start before the caller gives it back.
    @usableFromInline
    func takeParked() -> Bool {
        let current = word.load(ordering: .acquiring)
        guard current & Self.parkedBit != 0, current < Self.delivery else { return false }
        word.wrappingSubtract(Self.parkedBit, ordering: .relaxed)
        return true
    }
}
