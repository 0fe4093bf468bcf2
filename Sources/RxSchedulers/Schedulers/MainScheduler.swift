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
    /// Runs batched actions, and keeps the count of actions accepted to run on the main
    /// queue that have not finished yet (`unfinished`) in either mode.
    @usableFromInline let dispatcher: BatchedDispatch
    /// Actions running inline. Touched only on the main queue, whose blocks run one at a
    /// time, so a plain counter: the inline path needs no read-modify-write.
    @usableFromInline @exclusivity(unchecked) var inlineDepth = 0

    /// A main-queue scheduler with its own enqueue counter, so callers of other
    /// instances do not force it to enqueue (RxSwift issue #2704).
    public init(dispatch: Dispatch = .batched) {
        self.mainDispatch = dispatch
        let dispatcher = BatchedDispatch(queue: DispatchQueue.main, countsUnfinished: true)
        self.dispatcher = dispatcher
        // Batched: `schedule` puts the action in a slot of the dispatcher's queue, counted,
        // with no allocation (the slot's handle is the disposable), one main-queue block
        // per burst. Per action: `submitOwnWay`.
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
    /// block has run count until the block ends: they leave the count together, so that
    /// running an action costs no read-modify-write on a word the producers write.
    public var pendingCount: Int { dispatcher.unfinished.load(ordering: .relaxed) }

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
    /// The inline test costs one load of the counter and the main-queue test (~6 ns). It
    /// is RxSwift's increment-then-test in another order: an action enqueued from another
    /// thread just after the load is behind the inline one in FIFO order anyway, and
    /// cannot run before it (it needs the main queue, which the inline action holds).
    /// With `batched`, a main-queue block subtracts the actions it ran when it ends, so a
    /// main-queue caller sees every action queued before its call (its own earlier ones
    /// included) until the block that runs them has ended.
    ///
    /// Inlinable, so that a caller holding a `MainScheduler` compiles the inline path
    /// (and the action) into its own code.
    @inlinable
    override func enterInline() -> Bool {
        // The count first: from any thread one atomic load, and in a burst from a background
        // thread (the count above zero) it spares the main-queue test. `inlineDepth` is
        // main-queue state, read only once on the main queue.
        guard
            (dispatcher.unfinished.load(ordering: .acquiring) == 0 || SeededBug.isActive(.mainJumpsQueue))
                && DispatchQueue.isMain && (inlineDepth == 0 || SeededBug.isActive(.mainReentrant))
        else { return false }
        inlineDepth = 1
        return true
    }

    @inlinable
    override func exitInline() {
        inlineDepth = 0
    }

    @usableFromInline
    override var submitsOwnWay: Bool { true }

    /// Per action: the item goes to the main queue in a block of its own, counted.
    @usableFromInline
    override func submitOwnWay(_ item: ScheduledItemType) {
        dispatcher.unfinished.wrappingAdd(1, ordering: .acquiringAndReleasing)
        stressPoint(.mainEnqueuing)
        perActionBlocks.wrappingAdd(1, ordering: .relaxed)
        mainQueue.async {
            if !item.isDisposed || SeededBug.isActive(.perActionRunsDisposed) { item.invoke() }
            self.dispatcher.unfinished.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
