import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A place inside the core's concurrent code where a stress run may perturb the thread
/// passing through it (a yield, a spin, a short sleep), to widen the race windows the
/// code's correctness argument covers.
///
/// The points exist only in builds with the `StressHooks` package trait
/// (`swift build --traits StressHooks`). In other builds `stressPoint(_:)` has an empty
/// body and an optimized build contains nothing of it.
@usableFromInline package enum StressPoint: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// `MPSCQueue.enqueue`: a slot claimed, its element not yet published.
    case queueClaimed
    /// `MPSCQueue.enqueue`: the chunk boundary won, the next chunk not yet linked.
    case queueBoundaryWon
    /// `MPSCQueue.enqueue`: a boundary lost, waiting for the winner's chunk.
    case queueAwaitingChunk
    /// `MPSCQueue.dequeue`: about to read the next slot's flag.
    case queueDequeuing
    /// observe(on:) `drain`: an event queued, the work-in-progress counter not yet raised.
    case drainEnqueued
    /// observe(on:) `drain`: the disposed flag checked, the event not yet delivered.
    case drainDelivering
    /// observe(on:) `drain`: the queue looked empty, the counter not yet lowered.
    case drainExiting
    /// `MainScheduler`: an action counted as enqueued, not yet handed to the main queue.
    case mainEnqueuing
    /// A batched dispatch (`MainScheduler`, or a dispatch scheduler with `.batched`): the
    /// drain about to run the next action.
    case batchDraining
    /// `SinkDisposer`: the sink and subscription stored, the assigned bit not yet set.
    case sinkAssigning
    /// `SinkDisposer.dispose`: the disposed bit set, the sink not yet disposed.
    case sinkDisposing
    /// Periodic catch-up: a tick counted, its run not yet started.
    case periodicTicked
    /// `merge`/`flatMap`: an inner event about to be forwarded.
    case mergeForwarding
    /// `SerialDisposable`: about to replace (or, once disposed, dispose) its disposable.
    case serialSetting
    /// observe(on:) `drain`: an event admitted (the sink not stopped), not yet queued.
    case drainAdmitted
    /// A batched dispatch: an action queued, the drain request not yet counted.
    case batchSubmitted
    /// A batched dispatch: the queue looked empty, the drain's requests not yet subtracted.
    case batchExiting
    /// `DispatchActionQueue.enqueue`: a slot claimed and written, not yet published.
    case actionQueueClaimed
    /// `DispatchActionQueue.enqueue`: the chunk boundary won, the next chunk not yet linked.
    case actionQueueBoundaryWon
    /// `DispatchActionQueue.enqueue`: a boundary lost, waiting for the winner's chunk.
    case actionQueueAwaitingChunk
    /// `DispatchActionQueue.runNext`: about to read the next slot's flags.
    case actionQueueRunning
    /// `PublishSubject.on`: the delivery counted and the sole observer read, not yet called.
    case subjectDelivering

    @usableFromInline package var description: String {
        switch self {
        case .queueClaimed: return "MPSCQueue.enqueue claimed a slot"
        case .queueBoundaryWon: return "MPSCQueue.enqueue won a chunk boundary"
        case .queueAwaitingChunk: return "MPSCQueue.enqueue waiting for the next chunk"
        case .queueDequeuing: return "MPSCQueue.dequeue"
        case .drainEnqueued: return "observe(on:) drain: event queued"
        case .drainDelivering: return "observe(on:) drain: delivering"
        case .drainExiting: return "observe(on:) drain: exiting"
        case .mainEnqueuing: return "MainScheduler: enqueuing"
        case .batchDraining: return "batched dispatch: draining"
        case .sinkAssigning: return "SinkDisposer: assigning"
        case .sinkDisposing: return "SinkDisposer: disposing"
        case .periodicTicked: return "periodic catch-up: tick counted"
        case .mergeForwarding: return "merge: forwarding"
        case .serialSetting: return "SerialDisposable: setting"
        case .drainAdmitted: return "observe(on:) drain: event admitted"
        case .batchSubmitted: return "batched dispatch: action queued"
        case .batchExiting: return "batched dispatch: exiting"
        case .actionQueueClaimed: return "DispatchActionQueue.enqueue claimed a slot"
        case .actionQueueBoundaryWon: return "DispatchActionQueue.enqueue won a chunk boundary"
        case .actionQueueAwaitingChunk: return "DispatchActionQueue.enqueue waiting for the next chunk"
        case .actionQueueRunning: return "DispatchActionQueue.runNext"
        case .subjectDelivering: return "PublishSubject.on: delivering to the sole observer"
        }
    }
}

/// Passes through a stress point: calls the handler a stress run installed
/// (`StressHooks.install(_:)`), if any. Compiles to nothing without the `StressHooks` trait.
@inlinable @inline(__always)
func stressPoint(_ point: StressPoint) {
    #if StressHooks
    StressHooks.visit(point)
    #endif
}

/// The switch for stress hooks and seeded bugs.
@usableFromInline package enum StressHooks {
    /// Whether this build has the hooks (`--traits StressHooks`): without them,
    /// `install(_:)` has no effect and no seeded bug can be switched on.
    package static var isCompiled: Bool {
        #if StressHooks
        return true
        #else
        return false
        #endif
    }

    /// What a stress point calls: the point's raw value.
    package typealias Handler = @convention(c) (UInt8) -> Void

    /// The installed handler as a bit pattern (0: none). An atomic, so installing while
    /// dispatch's worker threads pass through points is not a data race; points load it
    /// with `acquiring` so a handler's own set-up, done before `install`, is visible.
    @usableFromInline static let handler = Atomic<UInt>(0)

    /// Routes every stress point to `handler` (nil: none). Takes effect for threads that
    /// pass a point afterwards.
    package static func install(_ handler: Handler?) {
        let bits = handler.map { UInt(bitPattern: unsafeBitCast($0, to: Int.self)) } ?? 0
        Self.handler.store(bits, ordering: .releasing)
    }

    @usableFromInline
    static func visit(_ point: StressPoint) {
        let bits = handler.load(ordering: .acquiring)
        guard bits != 0 else { return }
        unsafeBitCast(Int(bitPattern: bits), to: Handler.self)(point.rawValue)
    }
}

/// Bugs planted in the core on purpose, to show that `schedbench stress` catches each
/// class of bug its scenarios claim to. One is switched on for a whole process by the
/// environment variable `RXSCHEDULERS_SEEDED_BUG` (read once, at first use), and only in
/// builds with the `StressHooks` trait; in other builds `isActive(_:)` is a constant
/// `false` and the buggy paths are compiled out.
@usableFromInline package enum SeededBug: String, CaseIterable, Sendable {
    /// Lost event: the drain resets its work-in-progress counter to zero instead of
    /// subtracting what it accounted for, so an event queued meanwhile waits for a drain
    /// that never comes.
    case drainLostWakeup
    /// Delivery after dispose: the drain checks for disposal once per batch, not per event.
    case drainLateDisposeCheck
    /// Event after the stop event: the drain delivers a stop event without ending the
    /// subscription, so a `next` that raced it into the queue is delivered after it.
    case drainDeliversPastStop
    /// Duplicate: `MPSCQueue`'s boundary winner forgets to return after installing the
    /// next chunk and enqueues its element a second time.
    case queueBoundaryDuplicate
    /// Hang: `MPSCQueue`'s (and `DispatchActionQueue`'s) boundary losers wait while the
    /// claims are at the capacity, not only past it: the old chunk-boundary deadlock.
    case queueBoundaryHang
    /// Overlapping delivery: `merge` forwards `next` events without its lock.
    case mergeUnserialized
    /// Leaked resource: a `SerialDisposable` given a new disposable after it was disposed
    /// keeps it instead of disposing it (so subscribe(on:) disposed while it subscribes
    /// leaves the subscription running).
    case serialDisposableLeak
    /// Re-entrancy: `MainScheduler` runs an action inline even inside another of its actions.
    case mainReentrant
    /// Reorder: `MainScheduler` runs an action inline even while earlier ones are enqueued.
    case mainJumpsQueue
    /// Reorder: `MainScheduler`'s inline test trusts the drain's request count alone, so a
    /// main-thread call can run inline ahead of an action that another thread's `schedule`
    /// queued (and returned from) behind a slot whose producer has not published it yet.
    case mainInlineAheadOfClaimed
    /// Lost action: a batched dispatch's drain ends by clearing its request counter rather
    /// than subtracting the requests it saw, so an action queued meanwhile waits for a
    /// drain that never comes.
    case batchLostWakeup
    /// Lost periodic tick: the catch-up policy runs once for all ticks that piled up in a stall.
    case catchUpMergesTicks
    /// Delivery after dispose: the trampoline runs queued actions that were disposed (and
    /// so does batched dispatch, whose queue runs its slots with the same code).
    case trampolineRunsDisposed
    /// Wrong action cancelled: the trampoline reuses a chunk of its queue while handles to
    /// its slots are still held, so disposing an old handle cancels the action now queued
    /// in that slot.
    case trampolineReusesHeldSlot
    /// Result not disposed: a batched dispatch's queue ignores the handles still held on a
    /// chunk and releases every result as its action returns, so disposing a held handle
    /// after its action ran no longer disposes what the action returned.
    case batchIgnoresHandles
    /// Result not disposed: a batched dispatch's queue recycles a chunk it has finished
    /// while handles to its slots are still held; the reset drops the results those
    /// handles should dispose, and a held handle then names whatever is queued in its slot
    /// next.
    case actionQueueRecyclesHeldChunk
    /// Action after dispose: a per-action dispatch block (serial, concurrent, main) runs its
    /// action though the handle was disposed before the block ran, which RxSwift's
    /// schedulers guarantee never happens.
    case perActionRunsDisposed
    /// Lost actions: the trampoline's drain takes "head index equals tail index" for an
    /// empty queue without checking that head and tail are the same chunk, so it stops
    /// whenever exactly a multiple of a chunk's worth of actions is queued.
    case trampolineStopsAtChunkMultiple
    /// Disposal site: `ScheduledDisposable` disposes its inner disposable on the thread that
    /// disposes it instead of on its scheduler, so `subscribe(on:)` tears its source down
    /// off the scheduler it promises.
    case scheduledDisposableInline
    /// Reorder: `share(replay:)` replays to a late subscriber without holding back the live
    /// events that arrive meanwhile, so the subscriber can see a newer element before the
    /// replayed one.
    case shareReplayUngated
    /// Use after release: `PublishSubject` releases an observer removed while a delivery to
    /// it is running (a concurrent unsubscribe, or the observer's own), instead of parking
    /// it until the delivery returns.
    case subjectReleasesDeliveringObserver

    /// The environment variable that switches a seeded bug on.
    package static let environmentVariable = "RXSCHEDULERS_SEEDED_BUG"

    /// The bug this process runs with, if any.
    package static var active: SeededBug? {
        #if StressHooks
        return activeInThisProcess
        #else
        return nil
        #endif
    }

    #if StressHooks
    @usableFromInline static let activeInThisProcess: SeededBug? = {
        guard let value = getenv(environmentVariable) else { return nil }
        return SeededBug(rawValue: String(cString: value))
    }()
    #endif

    /// Whether `bug` is switched on. A constant `false` without the `StressHooks` trait.
    @inlinable @inline(__always)
    package static func isActive(_ bug: SeededBug) -> Bool {
        #if StressHooks
        return activeInThisProcess == bug
        #else
        return false
        #endif
    }
}
