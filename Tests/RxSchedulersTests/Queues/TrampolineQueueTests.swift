import Foundation
import XCTest

@testable import RxSchedulers

/// The trampoline's chunked queue, through `CurrentThreadScheduler`: order across chunks,
/// handle identity across reused chunks, results kept for a late dispose, states and
/// results released, and a dispose racing the run.
final class TrampolineQueueTests: RxTestCase {
    private let scheduler = CurrentThreadScheduler.instance

    private final class Token {}

    /// Counts how often it was disposed, in a counter that outlives it.
    private final class CountingDisposable: Disposable, @unchecked Sendable {
        let count: Locked<Int>
        init(_ count: Locked<Int> = Locked(0)) { self.count = count }
        func dispose() { count.withValue { $0 += 1 } }
    }

    func testActionsRunInFIFOOrderAcrossManyChunks() {
        let total = TrampolineQueue.chunkCapacity * 10 + 7
        var ran: [Int] = []
        _ = scheduler.schedule(()) { _ in
            for index in 0..<total {
                _ = self.scheduler.schedule(index) { index in
                    ran.append(index)
                    if index % 3 == 0 {
                        _ = self.scheduler.schedule(total + index) { child in
                            ran.append(child)
                            return Disposables.create()
                        }
                    }
                    return Disposables.create()
                }
            }
            return Disposables.create()
        }
        let children = (0..<total).filter { $0 % 3 == 0 }.map { total + $0 }
        XCTAssertEqual(ran, Array(0..<total) + children)
    }

    /// A handle kept from an earlier burst names its own (finished) action: disposing it
    /// while a later burst is queued cancels nothing of that burst.
    func testAStaleHandleCancelsNothingOfALaterBurst() {
        var stale: [Disposable] = []
        let count = TrampolineQueue.chunkCapacity * 2
        _ = scheduler.schedule(()) { _ in
            for _ in 0..<count { stale.append(self.scheduler.schedule(()) { _ in Disposables.create() }) }
            return Disposables.create()
        }
        var ran = 0
        _ = scheduler.schedule(()) { _ in
            for _ in 0..<count {
                _ = self.scheduler.schedule(()) { _ in
                    ran += 1
                    return Disposables.create()
                }
            }
            stale.forEach { $0.dispose() }
            return Disposables.create()
        }
        XCTAssertEqual(ran, count)
    }

    /// RxSwift's `ScheduledItem`: disposing the handle after the action ran disposes what
    /// the action returned, once, and releases it.
    func testDisposingAfterTheActionRanDisposesWhatItReturned() throws {
        weak var released: CountingDisposable?
        let disposals = Locked(0)
        var handle: Disposable?
        _ = scheduler.schedule(()) { _ in
            handle = self.scheduler.schedule(()) { _ in
                let returned = CountingDisposable(disposals)
                released = returned
                return returned
            }
            return Disposables.create()
        }
        let cancelable = try XCTUnwrap(handle as? Cancelable)
        XCTAssertNotNil(released, "the held handle keeps the result")
        XCTAssertEqual(disposals.current, 0)
        XCTAssertFalse(cancelable.isDisposed)
        cancelable.dispose()
        cancelable.dispose()
        XCTAssertEqual(disposals.current, 1)
        XCTAssertTrue(cancelable.isDisposed)
        XCTAssertNil(released, "the handle, still held, let go of the disposed result")
        handle = nil
    }

    func testTheResultIsReleasedOnceNoHandleIsLeft() {
        weak var released: Token?
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.schedule(()) { _ in
                let token = Token()
                released = token
                return Disposables.create { _ = token }
            }
            return Disposables.create()
        }
        XCTAssertNil(released, "the burst's end clears the slots of a chunk nobody else holds")
    }

    /// With no handle left to the action, nothing can dispose what it returned: the run
    /// releases it at once, undisposed, as RxSwift releases an item nobody holds.
    func testAResultNobodyCanDisposeIsReleasedAtOnceUndisposed() {
        weak var released: CountingDisposable?
        let disposals = Locked(0)
        var releasedBeforeTheNextAction: Bool?
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.schedule(()) { _ in
                let returned = CountingDisposable(disposals)
                released = returned
                return returned
            }
            _ = self.scheduler.schedule(()) { _ in
                releasedBeforeTheNextAction = released == nil
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(releasedBeforeTheNextAction, true)
        XCTAssertEqual(disposals.current, 0)
    }

    /// Disposed while it runs, and its handle let go before it returns: what it returns
    /// is disposed, as RxSwift's `ScheduledItem` disposes a result assigned after its
    /// disposal.
    func testAResultOfAnActionDisposedWhileRunningIsDisposedEvenWithNoHandleLeft() {
        let disposals = Locked(0)
        var handle: Disposable?
        _ = scheduler.schedule(()) { _ in
            handle = self.scheduler.schedule(()) { _ in
                handle?.dispose()
                handle = nil
                return CountingDisposable(disposals)
            }
            return Disposables.create()
        }
        XCTAssertNil(handle)
        XCTAssertEqual(disposals.current, 1)
    }

    private struct NoBytes {}
    private enum OneCase { case only }

    /// The kind code that is not specialized for the state records, as a generic call
    /// through `ImmediateSchedulerType` makes it: never optimized, so never specialized.
    @_optimize(none)
    private func unspecializedKind<State>(_: State.Type) -> QueuedActionKind {
        InlineQueuedAction.kind(State.self)
    }

    /// Queued from code not specialized for them, states of no bytes (`()`, an empty
    /// struct, a one-case enum) share the `Void` run path; code specialized for its state
    /// (an optimized build) records a runner specialized for it instead. Either way they run
    /// in order with the others, called directly and through the protocol.
    func testStatesOfNoBytesRunThroughTheVoidPathUnlessTheCallerIsSpecialized() {
        XCTAssertTrue(unspecializedKind(Void.self).isEmpty)
        XCTAssertTrue(unspecializedKind(NoBytes.self).isEmpty)
        XCTAssertTrue(unspecializedKind(OneCase.self).isEmpty)
        XCTAssertFalse(unspecializedKind(Int.self).isEmpty)
        XCTAssertFalse(unspecializedKind(Int.self).isSpecialized)
        #if !DEBUG
        XCTAssertTrue(InlineQueuedAction.kind(Int.self).isSpecialized, "an optimized build specializes a concrete call")
        XCTAssertTrue(InlineQueuedAction.kind(Void.self).isSpecialized)
        #endif
        let generic: ImmediateSchedulerType = scheduler
        var ran: [String] = []
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.schedule(NoBytes()) { _ in
                ran.append("struct")
                return Disposables.create()
            }
            _ = generic.schedule(OneCase.only) { state in
                ran.append("enum \(state)")
                return Disposables.create()
            }
            _ = generic.schedule(7) { state in
                ran.append("int \(state)")
                return Disposables.create()
            }
            _ = generic.schedule(()) { _ in
                ran.append("void")
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(ran, ["struct", "enum only", "int 7", "void"])
    }

    private final class WeakTrampoline: @unchecked Sendable {
        weak var trampoline: CurrentThreadScheduler.Trampoline?
    }

    /// A thread's trampoline (and its cached pointer) goes when the thread exits.
    func testAThreadsTrampolineIsReleasedWhenTheThreadExits() {
        let observed = WeakTrampoline()
        let ran = Locked(0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            observed.trampoline = CurrentThreadScheduler.current
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    ran.withValue { $0 += 1 }
                    return Disposables.create()
                }
                return Disposables.create()
            }
            done.signal()
        }
        thread.start()
        done.wait()
        XCTAssertEqual(ran.current, 1)
        let deadline = Date().addingTimeInterval(5)
        while observed.trampoline != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        XCTAssertNil(observed.trampoline)
    }

    func testDisposingBeforeTheRunSkipsTheActionAndReleasesItsState() {
        weak var smallState: Token?
        weak var largeState: Token?
        var ran: [String] = []
        _ = scheduler.schedule(()) { _ in
            let small = Token()
            smallState = small
            let first = self.scheduler.schedule(small) { _ in
                ran.append("small")
                return Disposables.create()
            }
            let large = Token()
            largeState = large
            // Over 16 bytes of state: stored in a box rather than in the slot.
            let second = self.scheduler.schedule((large, 1, 2, 3, 4)) { _ in
                ran.append("large")
                return Disposables.create()
            }
            first.dispose()
            second.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(ran, [])
        XCTAssertNil(smallState)
        XCTAssertNil(largeState)
    }

    func testALargeStateRunsWithItsValues() {
        var received: (Int, Int, Int, Int, Int)?
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.schedule((1, 2, 3, 4, 5)) { state in
                received = state
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(received.map { [$0.0, $0.1, $0.2, $0.3, $0.4] }, [1, 2, 3, 4, 5])
    }

    /// A deep burst's chunks are kept for the next one; bursts that use under a quarter of
    /// them halve what is kept, down to `keptChunks`.
    func testTheQueueKeepsChunksForTheNextBurstThenShrinksBack() {
        func burst(_ count: Int) {
            _ = scheduler.schedule(()) { _ in
                for _ in 0..<count { _ = self.scheduler.schedule(()) { _ in Disposables.create() } }
                return Disposables.create()
            }
        }
        let queue = CurrentThreadScheduler.current.queue
        let deep = TrampolineQueue.chunkCapacity * 50
        burst(deep)
        let kept = queue.spareChunkCount
        XCTAssertGreaterThanOrEqual(kept, 45, "the deep burst's chunks are kept")
        burst(deep)
        XCTAssertEqual(queue.spareChunkCount, kept, "a second deep burst reuses them")
        var halvings = 0
        while queue.spareChunkCount > TrampolineQueue.keptChunks {
            let before = queue.spareChunkCount
            burst(1)
            XCTAssertEqual(queue.spareChunkCount, before - before / 2)
            halvings += 1
        }
        XCTAssertLessThanOrEqual(halvings, 5)
        burst(1)
        XCTAssertEqual(queue.spareChunkCount, TrampolineQueue.keptChunks)
        XCTAssertTrue(queue.isEmpty)
    }

    /// A dispose from another thread racing the run: the action's result is disposed
    /// exactly once when the action ran, and there is none when it was skipped.
    func testADisposeRacingTheRunDisposesTheResultExactlyOnce() {
        let handoff = Locked<Disposable?>(nil)
        let handed = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let rounds = 2_000
        Thread.detachNewThread {
            for _ in 0..<rounds {
                handed.wait()
                handoff.withValue { $0 }?.dispose()
                finished.signal()
            }
        }
        for _ in 0..<rounds {
            let result = CountingDisposable()
            var ran = false
            _ = scheduler.schedule(()) { _ in
                let handle = self.scheduler.schedule(()) { _ in
                    ran = true
                    return result
                }
                handoff.withValue { $0 = handle }
                handed.signal()
                return Disposables.create()
            }
            finished.wait()
            handoff.withValue { $0 = nil }
            XCTAssertEqual(result.count.current, ran ? 1 : 0)
        }
    }
}
