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
@usableFromInline package enum StressPoint: UInt8, CaseIterable, Sendable {
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
    /// `EmissionSerializer` (merge, flatMap): the token taken, the queue not yet checked.
    case emissionTokenTaken
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
    /// `EmissionSerializer`: an event queued, `pending` not yet raised.
    case emissionQueued
    /// `EmissionSerializer`: the queue looked empty, the token's count not yet lowered.
    case emissionDrainExiting
    /// `EmissionSerializer`: an event arriving, before its sender tries for the token.
    case emissionArriving

    /// Where the point is, for a person (a hang report names each thread's last point so).
    /// `String(describing:)` gives the case name, which `schedbench stress --points` takes.
    @usableFromInline package var summary: String {
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
        case .emissionTokenTaken: return "merge: emission token taken"
        case .serialSetting: return "SerialDisposable: setting"
        case .drainAdmitted: return "observe(on:) drain: event admitted"
        case .batchSubmitted: return "batched dispatch: action queued"
        case .batchExiting: return "batched dispatch: exiting"
        case .actionQueueClaimed: return "DispatchActionQueue.enqueue claimed a slot"
        case .actionQueueBoundaryWon: return "DispatchActionQueue.enqueue won a chunk boundary"
        case .actionQueueAwaitingChunk: return "DispatchActionQueue.enqueue waiting for the next chunk"
        case .actionQueueRunning: return "DispatchActionQueue.runNext"
        case .subjectDelivering: return "PublishSubject.on: delivering to the sole observer"
        case .emissionQueued: return "merge: event queued"
        case .emissionDrainExiting: return "merge: drain exiting"
        case .emissionArriving: return "merge: event arriving"
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

/// The switch for stress hooks.
@usableFromInline package enum StressHooks {
    /// Whether this build has the hooks (`--traits StressHooks`): without them,
    /// `install(_:)` has no effect.
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
