/// A binary min-heap ordered by `isOrderedBefore` (not thread-safe; callers lock).
///
/// Used by the virtual-time scheduler: `peek` is O(1), `enqueue` and `dequeue`
/// O(log n), and `remove(_:)` (of an object, by identity) O(n).
struct PriorityQueue<Element: AnyObject> {
    private let isOrderedBefore: (Element, Element) -> Bool
    private var elements: [Element] = []

    init(isOrderedBefore: @escaping (Element, Element) -> Bool) {
        self.isOrderedBefore = isOrderedBefore
    }

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }

    func peek() -> Element? { elements.first }

    mutating func enqueue(_ element: Element) {
        elements.append(element)
        siftUp(elements.count - 1)
    }

    mutating func dequeue() -> Element? {
        guard !elements.isEmpty else { return nil }
        return remove(at: 0)
    }

    /// Removes `element` (compared by identity) if present.
    mutating func remove(_ element: Element) {
        guard let index = elements.firstIndex(where: { $0 === element }) else { return }
        _ = remove(at: index)
    }

    private mutating func remove(at index: Int) -> Element {
        let removed = elements[index]
        let last = elements.removeLast()
        if index < elements.count {
            elements[index] = last
            siftDown(index)
            siftUp(index)
        }
        return removed
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard isOrderedBefore(elements[child], elements[parent]) else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < elements.count, isOrderedBefore(elements[left], elements[first]) { first = left }
            if right < elements.count, isOrderedBefore(elements[right], elements[first]) { first = right }
            if first == parent { return }
            elements.swapAt(parent, first)
            parent = first
        }
    }
}
