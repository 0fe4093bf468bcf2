import CTrampolineCache

/// The trampoline: runs the outermost action on this thread at once and queues actions
/// scheduled while it runs, running them in order after it returns and skipping those
/// disposed meanwhile. Nested scheduling therefore never grows the stack.
///
/// Each thread's trampoline is owned by a pthread key and read through a C thread-local
/// that caches it (one load). A nested schedule stores the action in a slot of the
/// thread's `TrampolineQueue`, whose chunks are reused, and returns the slot as its
/// disposable: nothing is allocated per action (a state over 24 bytes is boxed). A
/// `scheduleRecursive` step allocates nothing either and, when nothing else is queued,
/// does not even go through the queue (see `TrampolineRecursion`).
///
/// A struct with no stored properties, where RxSwift declares a class: it has no state of
/// its own (each thread's is its `Trampoline`), and as a struct `instance` costs nothing to
/// read, where a class instance is retained and released around every
/// `CurrentThreadScheduler.instance.schedule` (about 40 instructions per call). Only
/// identity (`===`) and `AnyObject` uses of it differ from RxSwift.
public struct CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    /// One thread's trampoline.
    @usableFromInline
    final class Trampoline {
        @usableFromInline @exclusivity(unchecked) var isRunning = false
        @usableFromInline let queue = TrampolineQueue()

        deinit {
            // Released by the pthread key's destructor, on its own thread as it exits:
            // the cache must not outlive it (code run by a later destructor would read it).
            if rx_trampoline_cache_get() == Unmanaged.passUnretained(self).toOpaque() { rx_trampoline_cache_set(nil) }
        }

        /// Queues `item`; the trampoline must be running.
        @usableFromInline
        func enqueue(_ item: ScheduledItemType) {
            precondition(isRunning, "CurrentThreadScheduler: enqueue outside a running trampoline")
            queue.enqueue(item)
        }

        /// Queues `item` unless nothing is queued, and returns `false` (queuing nothing) in
        /// that case: `item` would run next, so the caller may run it itself as soon as
        /// its running action returns. The trampoline must be running.
        @usableFromInline
        func enqueueUnlessNext(_ item: ScheduledItemType) -> Bool {
            precondition(isRunning, "CurrentThreadScheduler: enqueue outside a running trampoline")
            if queue.isEmpty { return false }
            queue.enqueue(item)
            return true
        }
    }

    /// Owns each thread's trampoline, and releases it when the thread exits.
    private static let trampoline = ThreadLocalSlot { Trampoline() }

    /// Whether the next `schedule` on this thread runs its action at once (`true`) or
    /// queues it behind the action running now (`false`).
    public static var isScheduleRequired: Bool {
        !current.isRunning
    }

    @usableFromInline init() {}

    /// This thread's trampoline. Work queued on it runs on this thread only, so a
    /// recursion may keep it instead of looking it up per step.
    ///
    /// Read from a C thread-local that caches the pthread key's object: one load, where
    /// the key costs about 60 instructions (a sixth of a queued action).
    @inlinable
    static var current: Trampoline { currentUnretained.takeUnretainedValue() }

    /// This thread's trampoline, for callers that use it without retaining it
    /// (`_withUnsafeGuaranteedRef`): the thread's pthread key holds it meanwhile.
    @inlinable
    static var currentUnretained: Unmanaged<Trampoline> {
        guard let cached = rx_trampoline_cache_get() else { return Unmanaged.passUnretained(cacheCurrent()) }
        return Unmanaged.fromOpaque(cached)
    }

    /// Looks up (creating it on first use) this thread's trampoline and caches it.
    @usableFromInline
    static func cacheCurrent() -> Trampoline {
        let current = trampoline.value
        rx_trampoline_cache_set(Unmanaged.passUnretained(current).toOpaque())
        return current
    }

    /// Runs `action` now when nothing runs on this thread's trampoline, otherwise
    /// queues it to run after the current action.
    ///
    /// Inlinable, so that a caller that knows the state's type stores it into the queue's
    /// slot with code specialized for it; a call through `ImmediateSchedulerType` takes
    /// the generic path, which builds no type at run time either (`InlineQueuedAction`).
    @inlinable
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        Self.currentUnretained._withUnsafeGuaranteedRef { trampoline in
            guard trampoline.isRunning else { return Self.runOutermost(trampoline, state, action: action) }
            if InlineQueuedAction.fits(StateType.self) {
                let (handle, payload) = trampoline.queue.claim(InlineQueuedAction.kind(StateType.self))
                InlineQueuedAction.store(state, action: action, in: payload)
                return handle
            }
            return trampoline.queue.enqueue(state, action: action)
        }
    }

    /// Runs the outermost action, then everything queued meanwhile.
    @usableFromInline
    static func runOutermost<StateType>(_ trampoline: Trampoline, _ state: StateType, action: (StateType) -> Disposable) -> Disposable {
        trampoline.isRunning = true
        defer { trampoline.isRunning = false }
        let disposable = action(state)
        trampoline.queue.runAll()
        return disposable
    }
}

extension CurrentThreadScheduler {
    /// Slots per chunk of the trampoline's queue, where its chunk logic changes behaviour:
    /// for a stress run that builds queues of exactly k chunks, and one action either side.
    package static var queueChunkCapacity: Int { TrampolineQueue.chunkCapacity }
}
