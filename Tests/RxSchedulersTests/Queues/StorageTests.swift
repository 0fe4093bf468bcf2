import XCTest

@testable import RxSchedulers

final class StorageTests: XCTestCase {
    func testRingQueueKeepsOrderAcrossGrowthAndWrap() {
        var queue = RingQueue<Int>(capacity: 2)
        var expected: [Int] = []
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 1) {
                queue.enqueue(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                XCTAssertEqual(queue.dequeue(), expected.removeFirst())
            }
            XCTAssertEqual(queue.count, expected.count)
            XCTAssertEqual(queue.peek(), expected.first)
        }
        while let value = queue.dequeue() { XCTAssertEqual(value, expected.removeFirst()) }
        XCTAssertTrue(expected.isEmpty)
        XCTAssertTrue(queue.isEmpty)
    }

    func testBagKeepsInsertionOrderAndRemovesByKey() {
        var bag = Bag<Int>()
        let keys = (0..<10).map { bag.insert($0) }
        XCTAssertEqual(bag.removeValue(forKey: keys[3]), 3)
        XCTAssertEqual(bag.removeValue(forKey: keys[3]), nil)
        XCTAssertEqual(bag.removeValue(forKey: keys[9]), 9)
        XCTAssertEqual(bag.removeValue(forKey: keys[0]), 0)
        var seen: [Int] = []
        bag.forEach { seen.append($0) }
        XCTAssertEqual(seen, [1, 2, 4, 5, 6, 7, 8])
        XCTAssertEqual(bag.count, 7)
    }

    func testPriorityQueueOrdersAndRemovesByIdentity() {
        final class Item {
            let priority: Int
            init(_ priority: Int) { self.priority = priority }
        }
        var queue = PriorityQueue<Item> { $0.priority < $1.priority }
        let items = [5, 3, 9, 1, 7, 3, 8, 2].map(Item.init)
        items.forEach { queue.enqueue($0) }
        queue.remove(items[2])
        var out: [Int] = []
        while let item = queue.dequeue() { out.append(item.priority) }
        XCTAssertEqual(out, [1, 2, 3, 3, 5, 7, 8])
    }
}
