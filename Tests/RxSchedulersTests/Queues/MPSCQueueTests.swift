import Foundation
import Synchronization
import XCTest

@testable import RxSchedulers

/// Stress tests for the lock-free queue: many producers, one concurrent consumer;
/// nothing lost, nothing duplicated, each producer's order kept. Sizes stay small
/// enough for a few seconds per test; `MPSC_STRESS_ITEMS` raises them for soak runs.
final class MPSCQueueTests: XCTestCase {
    private struct Item {
        let producer: Int
        let sequence: Int
    }

    private var itemsPerProducer: Int {
        ProcessInfo.processInfo.environment["MPSC_STRESS_ITEMS"].flatMap(Int.init) ?? 50_000
    }

    private func stress(producers: Int) {
        let queue = MPSCQueue<Item>()
        let perProducer = itemsPerProducer
        let total = producers * perProducer
        let start = DispatchSemaphore(value: 0)
        let ready = DispatchGroup()
        let group = DispatchGroup()
        for producer in 0..<producers {
            group.enter()
            ready.enter()
            Thread.detachNewThread {
                ready.leave()
                start.wait()
                for sequence in 0..<perProducer { queue.enqueue(Item(producer: producer, sequence: sequence)) }
                group.leave()
            }
        }
        // Every producer is running and waits at the gate, so they start together.
        XCTAssertEqual(ready.wait(timeout: .now() + 60), .success)
        for _ in 0..<producers { start.signal() }

        var next = [Int](repeating: 0, count: producers)
        var received = 0
        var violations: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while received < total && Date() < deadline {
            guard let item = queue.dequeue() else { continue }
            if item.sequence != next[item.producer] {
                violations.append("producer \(item.producer): got \(item.sequence), expected \(next[item.producer])")
            }
            next[item.producer] = item.sequence + 1
            received += 1
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertNil(queue.dequeue(), "duplicated or extra elements")
        XCTAssertEqual(received, total, "lost elements")
        XCTAssertEqual(Array(violations.prefix(5)), [], "order broken or duplicates")
        XCTAssertEqual(next, [Int](repeating: perProducer, count: producers))
    }

    func testOneProducer() { stress(producers: 1) }
    func testTwoProducers() { stress(producers: 2) }
    func testFourProducers() { stress(producers: 4) }
    func testEightProducers() { stress(producers: 8) }

    /// Regression: a producer that lost a chunk boundary must not wait when the current
    /// chunk is full but nobody has claimed the winning index yet (claims == capacity):
    /// the next claim is the winner, and if every remaining producer waited, none would
    /// make it (found under compile load: four producers waiting on claims == 256).
    func testBoundaryLoserRetriesWhenNoWinnerHasClaimedYet() {
        let capacity = UInt(MPSCQueue<Int>.chunkCapacity)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fullNoWinner = Atomic<UInt>(capacity << 48 | 0x1000)
            MPSCQueue<Int>.awaitNextChunk(fullNoWinner, at: .queueAwaitingChunk)
            returned.signal()
        }
        XCTAssertEqual(returned.wait(timeout: .now() + 5), .success, "a loser waited for a winner that does not exist")
    }

    func testSingleThreadedFIFOAcrossManyChunks() {
        let queue = MPSCQueue<Int>()
        let count = MPSCQueue<Int>.chunkCapacity * 5 + 3
        for value in 0..<count { queue.enqueue(value) }
        var out: [Int] = []
        while let value = queue.dequeue() { out.append(value) }
        XCTAssertEqual(out, Array(0..<count))
        queue.enqueue(7)
        XCTAssertEqual(queue.dequeue(), 7)
        XCTAssertNil(queue.dequeue())
    }

    func testReleasesElementsLeftInTheQueue() {
        final class Tracked {
            static let live = Locked(0)
            init() { Tracked.live.withValue { $0 += 1 } }
            deinit { Tracked.live.withValue { $0 -= 1 } }
        }
        do {
            let queue = MPSCQueue<Tracked>()
            for _ in 0..<(MPSCQueue<Tracked>.chunkCapacity + 10) { queue.enqueue(Tracked()) }
            _ = queue.dequeue()
        }
        XCTAssertEqual(Tracked.live.current, 0)
    }
}
