/// Identifies a value inserted into a `Bag`.
@usableFromInline
struct BagKey: Hashable, Comparable {
    @usableFromInline let rawValue: UInt64

    @usableFromInline init(rawValue: UInt64) { self.rawValue = rawValue }

    @inlinable static func < (lhs: BagKey, rhs: BagKey) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An insertion-ordered collection of values addressed by the key `insert` returned.
///
/// Keys only grow, so the key array stays sorted and removal is a binary search plus a
/// shift. Iteration walks a contiguous array; copying a bag to iterate it outside a
/// lock shares storage (copy-on-write), so delivering an event to every subscriber of
/// a subject allocates nothing.
@usableFromInline
struct Bag<Value> {
    @usableFromInline var keys: [BagKey] = []
    @usableFromInline var values: [Value] = []
    @usableFromInline var nextKey: UInt64 = 0

    @inlinable init() {}

    @inlinable var count: Int { values.count }
    @inlinable var isEmpty: Bool { values.isEmpty }

    /// Appends `value` and returns the key that removes it.
    @inlinable
    mutating func insert(_ value: Value) -> BagKey {
        let key = BagKey(rawValue: nextKey)
        nextKey &+= 1
        keys.append(key)
        values.append(value)
        return key
    }

    /// Removes and returns the value stored under `key`, if it is still there.
    @inlinable
    mutating func removeValue(forKey key: BagKey) -> Value? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key else { return nil }
        keys.remove(at: low)
        return values.remove(at: low)
    }

    /// Removes every value.
    @inlinable
    mutating func removeAll() {
        keys.removeAll()
        values.removeAll()
    }

    /// Calls `body` on each value in insertion order.
    @inlinable
    func forEach(_ body: (Value) throws -> Void) rethrows {
        for value in values { try body(value) }
    }
}
