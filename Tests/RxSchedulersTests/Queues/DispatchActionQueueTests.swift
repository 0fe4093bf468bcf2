import Dispatch
import XCTest

@testable import RxSchedulers

/// The batched dispatch's queue of actions, driven directly: order across chunks and
/// producers, handles that cancel or dispose exactly their action, results released when
/// no handle is left, and chunks freed once run and unheld.
final class DispatchActionQueueTests: RxTestCase {
    private final class Token {}

    /// Runs everything published now.
    private func runAll(_ queue: DispatchActionQueue) -> Int {
        var ran = 0
        while queue.runNext() { ran += 1 }
        return ran
    }

    func testActionsRunInFIFOOrderAcrossChunks() {
        let queue = DispatchActionQueue()
        let total = DispatchActionQueue.capacity * 5 + 3
        var ran: [Int] = []
        for value in 0..<total {
            _ = queue.enqueue(value) { value in
                ran.append(value)
                return Disposables.create()
            }
        }
        XCTAssertEqual(runAll(queue), total)
        XCTAssertEqual(ran, Array(0..<total))
        XCTAssertFalse(queue.runNext(), "nothing is left")
    }

    /// Four producers at once against a consumer running concurrently: each producer's
    /// actions run once each, in its order.
    func testConcurrentProducersKeepTheirOrderAndLoseNothing() {
        let queue = DispatchActionQueue()
        let producers = 4
        let perProducer = 20_000
        let received = Locked([[Int]](repeating: [], count: producers))
        let produced = DispatchGroup()
        produced.enter()
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: producers) { producer in
                for value in 0..<perProducer {
                    _ = queue.enqueue(value) { value in
                        received.withValue { $0[producer].append(value) }
                        return Disposables.create()
                    }
                }
            }
            produced.leave()
        }
        var ran = 0
        while ran < producers * perProducer {
            if queue.runNext() { ran += 1 } else { sched_yield() }
        }
        XCTAssertEqual(produced.wait(timeout: .now() + 20), .success)
        XCTAssertFalse(queue.runNext())
        XCTAssertEqual(received.current, [[Int]](repeating: Array(0..<perProducer), count: producers))
    }

    func testADisposedHandleSkipsItsActionOnly() {
        let queue = DispatchActionQueue()
        var ran: [Int] = []
        let handles = (0..<3).map { value in
            queue.enqueue(value) { value in
                ran.append(value)
                return Disposables.create()
            }
        }
        handles[1].dispose()
        XCTAssertTrue(handles[1].isDisposed)
        XCTAssertFalse(handles[0].isDisposed)
        XCTAssertEqual(runAll(queue), 3)
        XCTAssertEqual(ran, [0, 2])
    }

    /// A held handle gets what its action returned disposed by its own dispose, after the
    /// run; a result whose chunk no handle refers to is released as soon as it returns.
    func testAResultIsKeptForAHeldHandleAndReleasedWhenNoneIsLeft() {
        let queue = DispatchActionQueue()
        let result = BooleanDisposable()
        let held = queue.enqueue(()) { _ in result }
        XCTAssertEqual(runAll(queue), 1)
        XCTAssertFalse(result.isDisposed)
        held.dispose()
        XCTAssertTrue(result.isDisposed, "disposing the handle after the run disposes the result")

        // A new queue, whose chunk no handle refers to (`held` refers to the first one's).
        let unheld = DispatchActionQueue()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            _ = unheld.enqueue(token) { token in
                Disposables.create { withExtendedLifetime(token) {} }
            }
        }
        XCTAssertNotNil(released, "the queue holds the state until the action runs")
        XCTAssertEqual(runAll(unheld), 1)
        XCTAssertNil(released, "with no handle left, the result (and the state it holds) goes at once")
    }

    /// A handle disposed and let go while its action runs: what the action returns is
    /// disposed, not just released.
    func testAResultOfAnActionDisposedWhileRunningIsDisposedEvenWithNoHandleLeft() {
        let queue = DispatchActionQueue()
        let result = BooleanDisposable()
        var handle: QueuedActionDisposable?
        handle = queue.enqueue(()) { _ in
            handle?.dispose()
            handle = nil
            return result
        }
        XCTAssertEqual(runAll(queue), 1)
        XCTAssertNil(handle)
        XCTAssertTrue(result.isDisposed)
    }

    /// A chunk goes once all of its slots ran and the last handle to it is released.
    func testAChunkIsFreedOnceRunAndUnheld() {
        let queue = DispatchActionQueue()
        let held = queue.enqueue(()) { _ in Disposables.create() }
        weak let chunk = held.chunk
        for _ in 1..<DispatchActionQueue.capacity { _ = queue.enqueue(()) { _ in Disposables.create() } }
        _ = queue.enqueue(()) { _ in Disposables.create() }  // the next chunk, so the consumer moves on
        XCTAssertEqual(runAll(queue), DispatchActionQueue.capacity + 1)
        XCTAssertNotNil(chunk, "a handle still refers to it")
        withExtendedLifetime(held) {}
        _ = consume held
        XCTAssertNil(chunk)
    }

    /// States too large for a slot are boxed and run with their values.
    func testALargeStateRunsWithItsValues() {
        let queue = DispatchActionQueue()
        var received: [Int] = []
        _ = queue.enqueue((1, 2, 3, 4, 5)) { state in
            received = [state.0, state.1, state.2, state.3, state.4]
            return Disposables.create()
        }
        XCTAssertEqual(runAll(queue), 1)
        XCTAssertEqual(received, [1, 2, 3, 4, 5])
    }

    /// Releasing a queue with actions and linked chunks left releases the actions without
    /// running them (no drain is left to run them) and frees its chunks one by one.
    func testReleasingAQueueReleasesItsActionsUnrunAndFreesItsChunks() {
        weak var state: Token?
        weak var first: ActionChunk?
        var ran = 0
        do {
            let queue = DispatchActionQueue()
            let token = Token()
            state = token
            for _ in 0..<(DispatchActionQueue.capacity * 3) {
                let handle = queue.enqueue(token) { _ in
                    ran += 1
                    return Disposables.create()
                }
                if first == nil { first = handle.chunk }
            }
        }
        XCTAssertEqual(ran, 0)
        XCTAssertNil(state)
        XCTAssertNil(first)
    }
}
