/// What a `ActionChunk` slot's payload holds, and so how to run or discard it. One
/// word: one chunk holds actions of every state type, and nothing is allocated.
@usableFromInline
enum QueuedActionKind {
    /// An `InlineQueuedAction` whose state has no bytes (`()`, an empty struct): run by
    /// code specialized once for `Void`, the commonest state (every `Producer`
    /// subscription that has to queue uses it).
    case empty
    /// An `InlineQueuedAction` whose state is of this type.
    case inline(Any.Type)
    /// A `QueuedActionBox`: the action of a state too large for the slot.
    case boxed
    /// A `ScheduledItemType` that checks its own disposal (a `scheduleRecursive` step).
    case item

    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    /// Runs the payload of an `inline` or `boxed` kind and leaves it uninitialized;
    /// returns what the action returned.
    func runAction(_ payload: UnsafeMutableRawPointer) -> Disposable {
        switch self {
        case .empty:
            return InlineQueuedAction.run(Void.self, payload)
        case .inline(let state):
            func run<State>(_ type: State.Type) -> Disposable { InlineQueuedAction.run(type, payload) }
            return _openExistential(state, do: run)
        case .boxed:
            return payload.assumingMemoryBound(to: (any QueuedActionBox).self).move().run()
        case .item:
            preconditionFailure("QueuedActionKind.runAction on an item")
        }
    }

    /// Runs the payload of an `item` kind, unless the item was disposed, and leaves it
    /// uninitialized.
    func runItem(_ payload: UnsafeMutableRawPointer) {
        let item = payload.assumingMemoryBound(to: ScheduledItemType.self).move()
        if !item.isDisposed || SeededBug.isActive(.trampolineRunsDisposed) { item.invoke() }
    }

    /// Releases the payload without running it.
    func discard(_ payload: UnsafeMutableRawPointer) {
        switch self {
        case .empty: InlineQueuedAction.discard(Void.self, payload)
        case .inline(let state):
            func discard<State>(_ type: State.Type) { InlineQueuedAction.discard(type, payload) }
            _openExistential(state, do: discard)
        case .boxed: payload.assumingMemoryBound(to: (any QueuedActionBox).self).deinitialize(count: 1)
        case .item: payload.assumingMemoryBound(to: ScheduledItemType.self).deinitialize(count: 1)
        }
    }
}

/// An action and its state stored in the slot itself: the closure's two words, then the
/// state.
///
/// Written so that code running unspecialized (any call through `ImmediateSchedulerType`)
/// builds no type from `State` at run time: no tuple, no generic type and no function
/// type, whose metadata the runtime looks up in a hash table on each use (such lookups
/// made a first version cost about 500 ns per action). The slot records `State.self`;
/// the closure is kept as its two words, `ErasedClosure`, which is exactly how Swift lays
/// out any closure value (a function pointer and a reference-counted context).
@usableFromInline
enum InlineQueuedAction {
    /// A closure's two words, with the context retained.
    @usableFromInline
    struct ErasedClosure {
        @usableFromInline let function: UnsafeRawPointer
        @usableFromInline let context: AnyObject?
    }

    /// Bytes before the state.
    @inlinable static var stateOffset: Int { MemoryLayout<ErasedClosure>.stride }

    /// The kind of a slot holding an action with this state, which must fit.
    @inlinable static func kind<State>(_: State.Type) -> QueuedActionKind {
        // A type of no bytes is trivial, so the `Void` code moves and destroys it
        // correctly, and a closure over it takes the same (indirect) argument.
        MemoryLayout<State>.size == 0 && _isPOD(State.self) ? .empty : .inline(State.self)
    }

    /// Whether an action with this state fits in a slot.
    @inlinable static func fits<State>(_: State.Type) -> Bool {
        MemoryLayout<State>.size <= ActionChunk.inlineBytes - stateOffset
            && MemoryLayout<State>.alignment <= MemoryLayout<ErasedClosure>.alignment
    }

    @inlinable static func store<State>(_ state: State, action: @escaping (State) -> Disposable, in payload: UnsafeMutableRawPointer) {
        payload.initializeMemory(as: ErasedClosure.self, to: unsafeBitCast(action, to: ErasedClosure.self))
        (payload + stateOffset).initializeMemory(as: State.self, to: state)
    }

    static func run<State>(_: State.Type, _ payload: UnsafeMutableRawPointer) -> Disposable {
        let action = unsafeBitCast(payload.assumingMemoryBound(to: ErasedClosure.self).move(), to: ((State) -> Disposable).self)
        let state = (payload + stateOffset).assumingMemoryBound(to: State.self).move()
        return action(state)
    }

    static func discard<State>(_: State.Type, _ payload: UnsafeMutableRawPointer) {
        payload.assumingMemoryBound(to: ErasedClosure.self).deinitialize(count: 1)
        (payload + stateOffset).assumingMemoryBound(to: State.self).deinitialize(count: 1)
    }
}

/// The action of a state too large for a slot, in a box the slot refers to (one
/// allocation).
protocol QueuedActionBox: AnyObject {
    func run() -> Disposable
}

final class ActionBox<State>: QueuedActionBox {
    private let action: (State) -> Disposable
    private let state: State

    init(_ state: State, action: @escaping (State) -> Disposable) {
        self.action = action
        self.state = state
    }

    func run() -> Disposable { action(state) }
}
