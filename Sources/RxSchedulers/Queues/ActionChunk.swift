import COpaquePublish
import Synchronization

/// `capacity` slots of queued actions, in one allocation. A slot is one 64-byte cache
/// line: a kind (what the payload holds, 16 bytes), a payload (40), and an atomic flags
/// word (8). The payload holds the action until it runs, then what the action returned.
/// A slot's handle is a `QueuedActionDisposable`.
///
/// One line per slot, rather than an array each of kinds, payloads and flags: running a
/// slot written on another thread then moves one line between cores instead of parts
/// of three, and a producer publishing one slot never writes the line of the slot the
/// consumer is reading. On the main-queue hand-off from a background thread it took
/// 486 → 409 instructions per action (docs/performance/journal.md, 2026-11-27).
///
/// Two queues use these chunks:
/// - `TrampolineQueue` (one thread's `CurrentThreadScheduler`) stores, runs and reuses
///   them on its own thread, linked through `next`;
/// - `DispatchActionQueue` (batched dispatch) with many producers and one consumer: a
///   producer publishes the slot it wrote (`publish(at:)`, `publishedBit`), the consumer
///   runs it once published, and the chunks are linked through `successor`; a chunk
///   the consumer has finished is kept for reuse when no handle still refers to it (up to
///   `DispatchActionQueue.keptChunks`), and freed otherwise.
///
/// ## Threads and ordering
///
/// The queue's own thread (for a `DispatchActionQueue`, its consumer) runs and resets
/// slots; the trampoline's thread also stores them. A handle may call `dispose(at:)` or
/// `isDisposed(at:)` from any thread; those touch only the slot's flags and result:
///
/// - `run(at:)` reads the flags with *acquire* and skips a disposed action. Otherwise it
///   runs it, writes the result, then sets `resultBit` with a read-modify-write
///   (acquire-release). If that finds `disposedBit` already set, the disposer came
///   first and saw no result, so `run` disposes the result itself.
/// - `dispose(at:)` sets `disposedBit` (acquire-release). If `resultBit` was set, the
///   result is visible to it (acquire) and it moves the result out and disposes it,
///   then sets `releasedBit` with *release*. Exactly one side disposes a result, and
///   whoever takes it sets `releasedBit`: a slot holds a result while `resultBit` is set
///   and `releasedBit` is not.
/// - `reset(upTo:)` runs only when the queue holds the sole reference, so no handle is
///   left and any disposer has finished. It loads the flags with *acquire* before
///   writing the slot, which orders a disposer's move of the result before the reset
///   for the memory model (and for ThreadSanitizer, which does not see reference counts).
@usableFromInline
final class ActionChunk {
    static var disposedBit: Int { 1 }
    static var resultBit: Int { 2 }
    static var releasedBit: Int { 4 }
    /// Set by a producer of a `DispatchActionQueue` once the slot is written.
    @inlinable static var publishedBit: Int { 8 }

    /// Bytes of a slot's payload: a closure (two words) and three words of state, or
    /// the action's result (a `Disposable` existential, five words).
    @inlinable static var inlineBytes: Int { MemoryLayout<Disposable>.size }
    @inlinable static var payloadAlignment: Int { MemoryLayout<Int>.alignment }

    /// Slots per chunk.
    @inlinable static var capacity: Int { 32 }
    /// Bytes per slot: a cache line.
    @inlinable static var slotStride: Int { 64 }
    @inlinable static var kindOffset: Int { 0 }
    @inlinable static var payloadOffset: Int { 16 }
    @inlinable static var flagsOffset: Int { 56 }

    /// Whether the slot layout above holds for this platform's sizes, and a result's type
    /// is where `isNop` reads it (computed once, and checked whenever a chunk is made).
    static let layoutHolds: Bool =
        MemoryLayout<QueuedActionKind>.size <= payloadOffset - kindOffset
        && MemoryLayout<QueuedActionKind>.alignment <= payloadAlignment
        && payloadOffset + inlineBytes <= flagsOffset
        && flagsOffset + MemoryLayout<Atomic<Int>>.size <= slotStride
        && MemoryLayout<Atomic<Int>>.alignment <= payloadAlignment
        && existentialLayoutHolds()

    @usableFromInline let memory: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var next: ActionChunk?
    /// The next chunk of a `DispatchActionQueue`, retained (`Unmanaged` bits), set once by
    /// the producer that won this chunk's boundary and taken by the consumer.
    @usableFromInline let successor = Atomic<UInt>(0)

    init() {
        precondition(Self.layoutHolds, "ActionChunk: a slot's parts do not fit in its 64 bytes")
        memory = .allocate(byteCount: Self.capacity * Self.slotStride, alignment: Self.slotStride)
        for index in 0..<Self.capacity { flags(at: index).initialize(to: Atomic(0)) }
    }

    deinit {
        // No slot holds a payload: the queue runs dry before its trampoline stops. Results
        // are still here when handles outlived the queue's use of the chunk.
        reset(upTo: Self.capacity)
        memory.deallocate()
        let link = successor.load(ordering: .acquiring)
        if link != 0 { Unmanaged<ActionChunk>.fromOpaque(UnsafeRawPointer(bitPattern: link)!).release() }
    }

    /// Slot `index`'s line. Wrapping arithmetic: `index` is below `capacity`, so nothing
    /// can overflow.
    @inlinable func slot(_ index: Int) -> UnsafeMutableRawPointer {
        memory + (index &* Self.slotStride)
    }

    @inlinable func kind(at index: Int) -> UnsafeMutablePointer<QueuedActionKind> {
        (slot(index) + Self.kindOffset).assumingMemoryBound(to: QueuedActionKind.self)
    }

    @inlinable func flags(at index: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (slot(index) + Self.flagsOffset).assumingMemoryBound(to: Atomic<Int>.self)
    }

    @inlinable func payload(at index: Int) -> UnsafeMutableRawPointer {
        slot(index) + Self.payloadOffset
    }

    /// A slot's result, in its payload once the action ran; initialized while the flags
    /// say so (`holdsResult`).
    private func result(at index: Int) -> UnsafeMutablePointer<Disposable> {
        payload(at: index).assumingMemoryBound(to: Disposable.self)
    }

    // MARK: The owning thread

    func link(_ chunk: ActionChunk) {
        next = chunk
    }

    /// Unlinks and returns the next chunk, which must exist.
    func takeNext() -> ActionChunk {
        takeNextIfLinked()!
    }

    /// Unlinks and returns the next chunk, if any.
    func takeNextIfLinked() -> ActionChunk? {
        defer { next = nil }
        return next
    }

    /// Sets slot `index`'s kind and returns its payload, for the caller to initialize.
    @inlinable func claim(_ kind: QueuedActionKind, at index: Int) -> UnsafeMutableRawPointer {
        self.kind(at: index).pointee = kind
        return payload(at: index)
    }

    @usableFromInline
    func store<State>(_ state: State, action: @escaping (State) -> Disposable, at index: Int) {
        if InlineQueuedAction.fits(State.self) {
            self.kind(at: index).pointee = InlineQueuedAction.kind(State.self)
            InlineQueuedAction.store(state, action: action, in: payload(at: index))
        } else {
            self.kind(at: index).pointee = .boxed
            payload(at: index).initializeMemory(as: (any QueuedActionBox).self, to: ActionBox(state, action: action))
        }
    }

    func store(_ item: ScheduledItemType, at index: Int) {
        self.kind(at: index).pointee = .item
        payload(at: index).initializeMemory(as: ScheduledItemType.self, to: item)
    }

    /// Runs the action in slot `index`, or discards it if its handle was disposed.
    ///
    /// Returns whether the slot now holds a result that a handle might still have to
    /// dispose; the caller then keeps it (`keepResult(at:)`) while a handle to the chunk
    /// remains, and otherwise releases it at once (`releaseResult(at:)`), as RxSwift
    /// releases an item nobody holds. A `NopDisposable`, what most actions return, needs
    /// neither: disposing it does nothing and it holds nothing, so it is left in place
    /// (no uniqueness test and no destruction through the existential's value witness:
    /// 223 → 216 instructions per queued trampoline action, docs/performance).
    func run(at index: Int) -> Bool {
        let kind = self.kind(at: index).pointee
        let payload = payload(at: index)
        if case .item = kind {
            kind.runItem(payload)
            return false
        }
        if flags(at: index).pointee.load(ordering: .acquiring) & Self.disposedBit != 0 {
            kind.discard(payload)
            return false
        }
        kind.runAction(payload)
        return !Self.isNop(result(at: index))
    }

    /// Whether `result` holds a `NopDisposable`: one load and a compare of the type word of
    /// its existential container, which follows the three words of inline buffer (Swift's
    /// layout of a non-class existential, checked with `layoutHolds`). `type(of:)` would
    /// copy the value and ask the runtime for its dynamic type (about 100 instructions).
    private static func isNop(_ result: UnsafeMutablePointer<Disposable>) -> Bool {
        UnsafeRawPointer(result).load(fromByteOffset: existentialTypeOffset, as: UnsafeRawPointer.self) == nopType
    }

    private static var existentialTypeOffset: Int { 3 * MemoryLayout<Int>.size }

    /// `NopDisposable`'s metadata: a constant address.
    private static var nopType: UnsafeRawPointer { unsafeBitCast(NopDisposable.self as Any.Type, to: UnsafeRawPointer.self) }

    /// Whether an existential holding a `NopDisposable` stores its metadata where `isNop`
    /// reads.
    private static func existentialLayoutHolds() -> Bool {
        guard MemoryLayout<Disposable>.size >= existentialTypeOffset + MemoryLayout<UnsafeRawPointer>.size else { return false }
        let container = UnsafeMutablePointer<Disposable>.allocate(capacity: 1)
        defer { container.deallocate() }
        container.initialize(to: NopDisposable())
        defer { container.deinitialize(count: 1) }
        return isNop(container)
    }

    /// Keeps the result `run(at:)` left in slot `index` for its handle to dispose, or
    /// disposes it now if the handle was disposed while the action ran.
    func keepResult(at index: Int) {
        let previous = flags(at: index).pointee.bitwiseOr(Self.resultBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 {
            // Disposed while the action ran: the disposer saw no result, so it is ours.
            flags(at: index).pointee.bitwiseOr(Self.releasedBit, ordering: .relaxed)
            result(at: index).move().dispose()
        }
    }

    /// Releases the result `run(at:)` left in slot `index`, once the queue holds the
    /// chunk's only reference (no handle can dispose it any more); disposes it instead if
    /// its handle was disposed while the action ran, then let go (RxSwift's
    /// `ScheduledItem` disposes a result assigned after its disposal).
    func releaseResult(at index: Int) {
        // The caller's uniqueness test is a relaxed load of the chunk's reference count
        // (the runtime's). With this fence it acquires the last handle's release of the
        // count, which that handle's thread made after its dispose set the flag: the load
        // below sees the flag. A compiler barrier only on x86.
        atomicMemoryFence(ordering: .acquiring)
        if flags(at: index).pointee.load(ordering: .relaxed) & Self.disposedBit != 0 {
            result(at: index).move().dispose()
        } else {
            result(at: index).deinitialize(count: 1)
        }
    }

    /// Releases the action in slot `index` without running it.
    func discard(at index: Int) {
        self.kind(at: index).pointee.discard(payload(at: index))
    }

    /// Whether slot `index` holds a result (stored and not taken since).
    private func holdsResult(_ bits: Int) -> Bool {
        bits & Self.resultBit != 0 && bits & Self.releasedBit == 0
    }

    /// Clears slots `0..<count`, whose actions have all run or been discarded, for reuse.
    /// Only when the queue holds the sole reference.
    func reset(upTo count: Int) {
        for index in 0..<count {
            if holdsResult(flags(at: index).pointee.load(ordering: .acquiring)) { result(at: index).deinitialize(count: 1) }
            flags(at: index).pointee.store(0, ordering: .relaxed)
        }
    }

    // MARK: A `DispatchActionQueue`'s producers and consumer

    /// Publishes slot `index`, written by the calling producer, to the consumer (release).
    /// Through an opaque call, so that the retains of what the slot holds and of the
    /// handle stay before it (see `rx_opaque_publish`).
    @inlinable func publish(at index: Int) {
        rx_opaque_publish(UnsafeMutableRawPointer(flags(at: index)), ActionChunk.publishedBit)
    }

    /// Whether slot `index` was published (acquire), so that its contents are visible.
    func isPublished(at index: Int) -> Bool {
        flags(at: index).pointee.load(ordering: .acquiring) & Self.publishedBit != 0
    }

    // MARK: Any thread, through a handle

    func isDisposed(at index: Int) -> Bool {
        flags(at: index).pointee.load(ordering: .acquiring) & Self.disposedBit != 0
    }

    func dispose(at index: Int) {
        let previous = flags(at: index).pointee.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.resultBit != 0 else { return }
        let taken = result(at: index).move()
        flags(at: index).pointee.bitwiseOr(Self.releasedBit, ordering: .releasing)
        taken.dispose()
    }
}
