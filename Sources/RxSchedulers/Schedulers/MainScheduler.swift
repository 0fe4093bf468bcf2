import Dispatch
import Synchronization

/// Runs work on the main dispatch queue.
///
/// `instance` counts what it has enqueued: it runs an action inline only when called on
/// the main queue with nothing of its own still enqueued, and enqueues otherwise, so
/// actions never re-enter and run in FIFO order. `asyncInstance` always enqueues.
///
/// Enqueued actions are, by default, drained in batches (`SchedulerDispatch.batched`):
/// they go into a lock-free queue and one main-queue block runs up to `batchSize` of them,
/// for at most `SchedulerDispatch.batchTimeBudget`, before yielding the main queue to
/// other work (one `DispatchQueue.main.async` per burst instead of per action).
/// `MainScheduler(dispatch: .perAction)` keeps RxSwift's one block per action.
///
/// On Linux the main queue runs only while the main thread runs `RunLoop.main` (or
/// after `dispatchMain()`); until then enqueued work waits.
public final class MainScheduler: SerialDispatchQueueScheduler {
    /// Actions one main-queue block runs at most before yielding the main queue.
    public static var batchSize: Int { SchedulerDispatch.batchSize }

    private let mainDispatch: Dispatch

    /// How actions that cannot run inline reach the main queue.
    public override var dispatch: Dispatch { mainDispatch }

    private let mainQueue = DispatchQueue.main
    /// Runs batched actions, and keeps the count of this scheduler's pending actions in
    /// either mode (`BatchedDispatch.requests`).
    @usableFromInline let dispatcher: BatchedDispatch
    /// Actions running inline. Touched only on the main queue, whose blocks run one at a
    /// time, so a plain counter: the inline path needs no read-modify-write.
    @usableFromInline @exclusivity(unchecked) var inlineDepth = 0

    /// A main-queue scheduler with its own enqueue counter, so callers of other
    /// instances do not force it to enqueue (RxSwift issue #2704).
    public init(dispatch: Dispatch = .batched) {
        self.mainDispatch = dispatch
        let dispatcher = BatchedDispatch(queue: DispatchQueue.main)
        self.dispatcher = dispatcher
        // Batched: `schedule` puts the action in a slot of the dispatcher's queue, whose
        // drain request counts it, with no allocation (the slot's handle is the
        // disposable), one main-queue block per burst. Per action: `submitOwnWay`.
        super.init(serialQueue: DispatchQueue.main, countedBatch: dispatch == .batched ? dispatcher : nil)
    }

    /// Same as `init(dispatch: .batched)`.
    public convenience init() {
        self.init(dispatch: .batched)
    }

    /// The shared instance, with the shared enqueue counter.
    public static let instance = MainScheduler()

    /// A scheduler that always enqueues on the main queue, never running inline.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Traps unless the caller runs on the main queue.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !DispatchQueue.isMain {
            fatalError(errorMessage ?? "Executing on a background thread. Use `MainScheduler.instance.schedule` to run on the main queue.")
        }
    }

    /// Traps unless the caller runs on the main queue.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    /// How many actions this scheduler has enqueued that have not finished yet (an
    /// action running inline is not counted). With `batched`, the actions a main-queue
    /// block has run leave the count together when the block ends (or its queue looks
    /// empty), so that running an action costs no read-modify-write on a word the
    /// producers write; read on another thread, it may be a block's worth behind.
    public var pendingCount: Int { dispatcher.pendingCount }

    /// Blocks this scheduler has put on the main queue so far: one per enqueued action
    /// with `perAction`, one per burst (and per `batchSize` actions) with `batched`;
    /// actions run inline add none. For measuring the dispatch; a relaxed atomic add per
    /// block.
    public var mainQueueBlocks: Int {
        perActionBlocks.load(ordering: .relaxed) + dispatcher.blocksSubmitted.load(ordering: .relaxed)
    }

    private let perActionBlocks = Atomic<Int>(0)

    /// `schedule` runs the action inline when called on the main queue while none of this
    /// scheduler's actions is enqueued or running, and enqueues it otherwise.
    ///
    /// The inline test costs one load of the drain's request count and, on the main queue
    /// with that count at zero, the main-queue test and a load of the queue's tail word
    /// (6–7 ns a call in the micro suite). It is RxSwift's increment-then-test in another
    /// order, with the count a producer adds after queueing its action (the drain's
    /// wake-up, one read-modify-write per action for both):
    /// - an action another thread queues concurrently, not seen at the loads, comes after
    ///   the inline one (its `schedule` has not returned, so nothing orders it first), and
    ///   cannot run before it (it needs the main queue, which the inline action holds);
    /// - while a drain holds the queue (scheduled, running an action, or between two of its
    ///   blocks) the count is above zero, so an action of the drain never runs another
    ///   inside itself;
    /// - a drain that stops at a slot claimed and not yet published may take the count to
    ///   zero with actions queued behind it (the slot's producer starts the next drain), so
    ///   the test also asks the queue whether every claim has been taken
    ///   (`consumerHasTakenEveryClaim`, the consumer's own position: this runs on the main
    ///   queue, the queue's consumer): an action whose `schedule` returned before this call
    ///   is always seen.
    ///
    /// Inlinable, so that a caller holding a `MainScheduler` compiles the inline path
    /// (and the action) into its own code.
    @inlinable
    override func enterInline() -> Bool {
        // The count first: from any thread one atomic load, and in a burst from a background
        // thread (the count above zero) it spares the rest. `inlineDepth` and the queue's
        // position are main-queue state, read only on the main queue.
        guard dispatcher.requests.load(ordering: .acquiring) == 0 && DispatchQueue.isMain && inlineDepth == 0 && self.queueIsDrained else {
            return false
        }
        inlineDepth = 1
        return true
    }

    /// Whether the batched queue's consumer (the main queue) has taken every action
    /// claimed so far; main queue only. Without retaining the queue: `self` holds it.
    @inlinable
    var queueIsDrained: Bool {
        Unmanaged.passUnretained(dispatcher.pending)._withUnsafeGuaranteedRef { $0.consumerHasTakenEveryClaim() }
    }

    @inlinable
    override func exitInline() {
        inlineDepth = 0
    }

    @usableFromInline
    override var submitsOwnWay: Bool { true }

    /// Per action: the item goes to the main queue in a block of its own, counted in the
    /// dispatcher's `requests` (no drain runs in this mode).
    @usableFromInline
    override func submitOwnWay(_ item: ScheduledItemType) {
        dispatcher.requests.wrappingAdd(1, ordering: .acquiringAndReleasing)
        stressPoint(.mainEnqueuing)
        perActionBlocks.wrappingAdd(1, ordering: .relaxed)
        mainQueue.async {
            if !item.isDisposed { item.invoke() }
            self.dispatcher.requests.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
