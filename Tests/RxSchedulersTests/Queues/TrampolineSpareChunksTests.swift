import XCTest

@testable import RxSchedulers

/// The trampoline's kept chunks: handed out in the order they were emptied, so that a
/// burst walks memory the way the burst before it did.
final class TrampolineSpareChunksTests: RxTestCase {
    func testChunksAreHandedOutInTheOrderTheyWereKept() {
        var spare = TrampolineSpareChunks()
        let chunks = (0..<3).map { _ in ActionChunk() }
        chunks.forEach { spare.append($0) }
        XCTAssertEqual(spare.count, 3)
        for chunk in chunks { XCTAssertTrue(spare.removeFirst() === chunk) }
        XCTAssertNil(spare.removeFirst())
        XCTAssertEqual(spare.count, 0)

        // The list works again once emptied, and a kept chunk is linked to nothing.
        spare.append(chunks[2])
        spare.append(chunks[0])
        XCTAssertTrue(spare.removeFirst() === chunks[2])
        XCTAssertNil(chunks[2].takeNextIfLinked(), "a chunk handed out is unlinked from the rest")
        XCTAssertTrue(spare.removeFirst() === chunks[0])
    }

    func testRemovingTheOldestFreesThemAndKeepsTheRest() {
        var spare = TrampolineSpareChunks()
        weak var oldest: ActionChunk?
        do {
            let first = ActionChunk()
            oldest = first
            spare.append(first)
        }
        let newest = ActionChunk()
        spare.append(newest)
        spare.removeFirst(1)
        XCTAssertNil(oldest, "the oldest chunk is freed")
        XCTAssertEqual(spare.count, 1)
        XCTAssertTrue(spare.removeFirst() === newest)
    }

    /// Through the scheduler: a second deep burst uses the first one's chunks in the same
    /// order (a stack would hand them out backwards). It starts in the chunk the first
    /// one ended in, which the queue keeps as its head, then takes the kept ones.
    func testASecondBurstWalksTheFirstBurstsChunksInTheSameOrder() throws {
        let scheduler = CurrentThreadScheduler.instance
        func burstChunks() -> [UnsafeMutableRawPointer] {
            var chunks: [UnsafeMutableRawPointer] = []
            _ = scheduler.schedule(()) { _ in
                for _ in 0..<(TrampolineQueue.chunkCapacity * 20) {
                    // Only the address is kept: a held handle would keep its chunk from reuse.
                    let handle = scheduler.schedule(()) { _ in Disposables.create() } as! QueuedActionDisposable
                    let address = Unmanaged.passUnretained(handle.chunk).toOpaque()
                    if chunks.last != address { chunks.append(address) }
                }
                return Disposables.create()
            }
            return chunks
        }
        _ = burstChunks()
        let first = burstChunks()
        let second = burstChunks()
        XCTAssertEqual(first.count, 20)
        let start = try XCTUnwrap(first.firstIndex(of: second[0]))
        XCTAssertEqual(second, Array(first[start...] + first[..<start]))
    }
}
