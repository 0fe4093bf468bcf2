import Foundation
import RxSchedulers
import XCTest

/// `SchedulerDispatch.batched` on the serial and concurrent dispatch schedulers, against
/// `.perAction` (RxSwift's one block per action).
final class BatchedDispatchTests: RxTestCase {
    /// A serial scheduler and its own queue (handed out by `serialQueueConfiguration`).
    private func serialScheduler(_ dispatch: SchedulerDispatch) -> (SerialDispatchQueueScheduler, DispatchQueue) {
        var queue: DispatchQueue?
        let scheduler = SerialDispatchQueueScheduler(
            internalSerialQueueName: "batched-test", serialQueueConfiguration: { queue = $0 }, dispatch: dispatch)
        return (scheduler, queue!)
    }

    /// Blocks `queue` until the returned semaphore is signalled.
    private func hold(_ queue: DispatchQueue) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        queue.async {
            holding.signal()
            gate.wait()
        }
        holding.wait()
        return gate
    }

    /// While the queue is held: one action, a block submitted straight to the queue, then
    /// `count - 1` more actions, each taking at least `actionDuration` nanoseconds. Returns
    /// the order they ran in ("X" for the block).
    private func interleaving(_ dispatch: SchedulerDispatch, count: Int, actionDuration: UInt64 = 0) -> [String] {
        let (scheduler, queue) = serialScheduler(dispatch)
        let log = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let gate = hold(queue)
        func schedule(_ value: Int) {
            _ = scheduler.schedule(value) { value in
                let started = DispatchTime.now().uptimeNanoseconds
                while DispatchTime.now().uptimeNanoseconds - started < actionDuration {}
                log.withValue { $0.append("\(value)") }
                if value == count - 1 { done.signal() }
                return Disposables.create()
            }
        }
        schedule(0)
        queue.async { log.withValue { $0.append("X") } }
        for value in 1..<count { schedule(value) }
        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        return log.current
    }

    /// Batched: the first block runs at most `batchSize` actions (fewer, at a multiple of
    /// the clock interval, when a loaded machine makes it spend its time budget first),
    /// then yields the queue, so the straight block runs after actions scheduled later
    /// than it (the stated trade-off), and the actions keep their order.
    func testBatchedRunsAtMostBatchSizeActionsPerBlockThenYieldsTheQueue() {
        let count = SchedulerDispatch.batchSize * 3 + 5
        let numbers = (0..<count).map(String.init)
        let order = interleaving(.batched, count: count)
        let position = try! XCTUnwrap(order.firstIndex(of: "X"))
        XCTAssertTrue(position == SchedulerDispatch.batchSize || (position > 0 && position % 32 == 0), "yielded after \(position) actions")
        XCTAssertLessThanOrEqual(position, SchedulerDispatch.batchSize)
        XCTAssertEqual(order, Array(numbers[..<position]) + ["X"] + Array(numbers[position...]))
    }

    /// Batched: a block whose actions are slow yields once it has run for its time budget,
    /// at its first clock reading past it: with actions of 40 µs and a 0.5 ms budget,
    /// after exactly 32 actions (1.28 ms), whatever the machine's load, since each action
    /// takes at least that long.
    func testBatchedYieldsTheQueueOnceABlockHasSpentItsTimeBudget() {
        XCTAssertEqual(SchedulerDispatch.batchTimeBudget, .microseconds(500))
        let count = 100
        let numbers = (0..<count).map(String.init)
        XCTAssertEqual(
            interleaving(.batched, count: count, actionDuration: 40_000),
            Array(numbers[..<32]) + ["X"] + Array(numbers[32...]))
    }

    /// Per action: the straight block runs between the actions around it.
    func testPerActionInterleavesWithBlocksSubmittedStraightToTheQueue() {
        let count = 10
        let numbers = (0..<count).map(String.init)
        XCTAssertEqual(interleaving(.perAction, count: count), ["0", "X"] + numbers.dropFirst())
    }

    func testBatchedKeepsEachCallersOrderAndNeverOverlapsOnAConcurrentQueue() {
        let concurrent = DispatchQueue(label: "batched-concurrent", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: concurrent, dispatch: .batched)
        XCTAssertEqual(scheduler.dispatch, .batched)
        let detector = OverlapDetector()
        let perCaller = Locked([[Int]](repeating: [], count: 4))
        let group = DispatchGroup()
        let perThread = 2_000
        for _ in 0..<(4 * perThread) { group.enter() }
        DispatchQueue.concurrentPerform(iterations: 4) { caller in
            for value in 0..<perThread {
                _ = scheduler.schedule(value) { value in
                    detector.enter()
                    perCaller.withValue { $0[caller].append(value) }
                    detector.leave()
                    group.leave()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(detector.maximumConcurrency, 1)
        XCTAssertEqual(perCaller.current, [[Int]](repeating: Array(0..<perThread), count: 4))
    }

    /// Disposing before the run skips the action; disposing after disposes its result.
    func testBatchedSkipsDisposedActionsAndDisposesResultsAfterTheRun() {
        for dispatch in SchedulerDispatch.allCases {
            let (scheduler, queue) = serialScheduler(dispatch)
            XCTAssertEqual(scheduler.dispatch, dispatch)
            let ran = Locked<[String]>([])
            let result = BooleanDisposable()
            let gate = hold(queue)
            let skipped = scheduler.schedule(()) { _ in
                ran.withValue { $0.append("skipped") }
                return Disposables.create()
            }
            let kept = scheduler.schedule(()) { _ in
                ran.withValue { $0.append("kept") }
                return result
            }
            skipped.dispose()
            gate.signal()
            queue.sync {}
            XCTAssertEqual(ran.current, ["kept"], "\(dispatch)")
            XCTAssertFalse(result.isDisposed)
            kept.dispose()
            XCTAssertTrue(result.isDisposed, "\(dispatch)")
        }
    }

    /// The same through `ImmediateSchedulerType` (unspecialized code, as operators call a
    /// scheduler) on the concurrent scheduler, here over a serial queue so that the test
    /// can hold it.
    func testThroughTheProtocolTheConcurrentSchedulerSkipsAndDisposesTheSame() {
        for dispatch in SchedulerDispatch.allCases {
            let queue = DispatchQueue(label: "batched-test-concurrent")
            let concurrent = ConcurrentDispatchQueueScheduler(queue: queue, dispatch: dispatch)
            XCTAssertEqual(concurrent.dispatch, dispatch)
            let scheduler: ImmediateSchedulerType = concurrent
            let ran = Locked<[Int]>([])
            let result = BooleanDisposable()
            let gate = hold(queue)
            let skipped = scheduler.schedule(1) { value in
                ran.withValue { $0.append(value) }
                return Disposables.create()
            }
            let kept = scheduler.schedule(2) { value in
                ran.withValue { $0.append(value) }
                return result
            }
            skipped.dispose()
            gate.signal()
            queue.sync {}
            XCTAssertEqual(ran.current, [2], "\(dispatch)")
            XCTAssertFalse(result.isDisposed)
            kept.dispose()
            XCTAssertTrue(result.isDisposed, "\(dispatch)")
        }
    }

    /// Many producers at once, in bursts with pauses so the drain often finds the queue
    /// empty and ends: nothing is lost or run twice.
    func testBatchedLosesNothingWhenDrainsEndAndRestart() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "batched-bursts", dispatch: .batched)
        let seen = Locked([Int: Int]())
        let group = DispatchGroup()
        let perThread = 3_000
        for _ in 0..<(4 * perThread) { group.enter() }
        DispatchQueue.concurrentPerform(iterations: 4) { caller in
            for value in 0..<perThread {
                if value % 100 == 0 { usleep(200) }
                _ = scheduler.schedule(caller * perThread + value) { key in
                    seen.withValue { $0[key, default: 0] += 1 }
                    group.leave()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(seen.current.count, 4 * perThread)
        XCTAssertTrue(seen.current.values.allSatisfy { $0 == 1 })
    }

    /// Counts its ticks and says when it is released.
    private final class TickingState: @unchecked Sendable {
        let remaining: Locked<Int>
        let done = DispatchSemaphore(value: 0)
        let released: DispatchSemaphore
        init(_ count: Int, released: DispatchSemaphore) {
            remaining = Locked(count)
            self.released = released
        }
        deinit { released.signal() }
        func tick() {
            if remaining.withValue({
                $0 -= 1
                return $0
            }) == 0 {
                done.signal()
            }
        }
    }

    /// A class state through the schedulers' own types (code specialized for the state,
    /// as an app's calls are): it stays alive while any action holds it and is released
    /// once, after the last one ran. In a release build, the optimizer once moved the
    /// state's retain below the slot's publish, so the consumer could release the state
    /// first: "deallocated with non-zero retain count" within 200,000 actions
    /// (`rx_opaque_publish`).
    func testAClassStateLivesUntilTheLastActionHoldingItRan() {
        let serial = SerialDispatchQueueScheduler(internalSerialQueueName: "batched-state", dispatch: .batched)
        let concurrent = ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)
        let count = 100_000
        for round in 0..<3 {
            let released = DispatchSemaphore(value: 0)
            do {
                let state = TickingState(2 * count, released: released)
                for _ in 0..<count {
                    _ = serial.schedule(state) { state in
                        state.tick()
                        return Disposables.create()
                    }
                    _ = concurrent.schedule(state) { state in
                        state.tick()
                        return Disposables.create()
                    }
                }
                XCTAssertEqual(state.done.wait(timeout: .now() + 60), .success, "round \(round)")
            }
            XCTAssertEqual(released.wait(timeout: .now() + 10), .success, "round \(round): the state is released")
        }
    }
}
