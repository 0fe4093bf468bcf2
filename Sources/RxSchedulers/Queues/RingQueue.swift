/// A growable FIFO ring buffer (not thread-safe; callers lock).
///
/// Enqueue and dequeue are O(1); the buffer doubles when full and never shrinks below
/// its initial capacity, so a steady stream through a warmed-up queue allocates nothing.
/// Inlinable, for operators whose per-event code is specialized in the caller (`zip`).
@usableFromInline
struct RingQueue<Element> {
    @usableFromInline var storage: [Element?]
    @usableFromInline var head = 0
    @usableFromInline private(set) var count = 0

    @inlinable
    init(capacity: Int = 8) {
        storage = Array(repeating: nil, count: Swift.max(capacity, 1))
    }

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable
    mutating func enqueue(_ element: Element) {
        if count == storage.count { grow() }
        var tail = head + count
        if tail >= storage.count { tail -= storage.count }
        storage[tail] = element
        count += 1
    }

    @inlinable
    mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    @inlinable
    func peek() -> Element? {
        count > 0 ? storage[head] : nil
    }

    /// Drops every element, keeping the capacity.
    @inlinable
    mutating func removeAll() {
        while dequeue() != nil {}
        head = 0
    }

    @usableFromInline
    mutating func grow() {
        var grown = [Element?](repeating: nil, count: storage.count * 2)
        for offset in 0..<count {
            var index = head + offset
            if index >= storage.count { index -= storage.count }
            grown[offset] = storage[index]
        }
        storage = grown
        head = 0
    }
}
