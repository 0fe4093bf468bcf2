/// What an `ActionChunk` slot's payload holds, and so how to run or discard it. A word
/// and a tag, within the slot's 16 bytes for it: one chunk holds actions of every state
/// type, and nothing is allocated.
@usableFromInline
enum QueuedActionKind {
    /// An `InlineQueuedAction` run by this function, which was specialized for its state
    /// type where the action was queued (`InlineQueuedAction.kind`): a thin function's
    /// address, called with the payload. No value witness and no metadata at run time.
    case specialized(UnsafeRawPointer)
    /// An `InlineQueuedAction` whose state has no bytes (`()`, an empty struct), queued
    /// from code not specialized for it: run by code specialized once for `Void`.
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

    var isSpecialized: Bool {
        if case .specialized = self { return true }
        return false
    }

    /// Runs the payload of an `inline` or `boxed` kind and leaves what the action returned
    /// in its place (a `Disposable`, initialized).
    func runAction(_ payload: UnsafeMutableRawPointer) {
        switch self {
        case .specialized(let run):
            InlineQueuedAction.runner(run).run(payload, false)
        case .empty:
            InlineQueuedAction.run(Void.self, payload)
        case .inline(let state):
            func run<State>(_ type: State.Type) { InlineQueuedAction.run(type, payload) }
            _openExistential(state, do: run)
        case .boxed:
            let box = payload.assumingMemoryBound(to: (any QueuedActionBox).self).move()
            payload.initializeMemory(as: Disposable.self, to: box.run())
        case .item:
            preconditionFailure("QueuedActionKind.runAction on an item")
        }
    }

    /// Runs the payload of an `item` kind, unless the item was disposed, and leaves it
    /// uninitialized.
    func runItem(_ payload: UnsafeMutableRawPointer) {
        let item = payload.assumingMemoryBound(to: ScheduledItemType.self).move()
        if !item.isDisposed { item.invoke() }
    }

    /// Releases the payload without running it.
    func discard(_ payload: UnsafeMutableRawPointer) {
        switch self {
        case .specialized(let run): InlineQueuedAction.runner(run).run(payload, true)
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

        @inlinable init(function: UnsafeRawPointer, context: AnyObject?) {
            self.function = function
            self.context = context
        }
    }

    /// Bytes before the state.
    @inlinable static var stateOffset: Int { MemoryLayout<ErasedClosure>.stride }

    /// Runs (`discarding == false`) the action in a payload, leaving what it returned in
    /// the payload's place, or releases it unrun (`true`), leaving the payload empty.
    ///
    /// A struct around the closure, bit-cast whole: a closure passed to `unsafeBitCast`
    /// directly would be re-abstracted to take its arguments indirectly (through a thunk),
    /// where a stored property keeps the closure's own, direct, convention.
    @usableFromInline
    struct Runner {
        @usableFromInline let run: (_ payload: UnsafeMutableRawPointer, _ discarding: Bool) -> Void

        @inlinable init(_ run: @escaping (_ payload: UnsafeMutableRawPointer, _ discarding: Bool) -> Void) {
            self.run = run
        }
    }

    /// The kind of a slot holding an action with this state, which must fit.
    ///
    /// Where the caller's code is specialized for `State` (`_isConcrete`), the kind is
    /// the address of a runner specialized for it: the closure below then captures
    /// nothing (the state's type is known), so it is a thin function with no context,
    /// and running the slot costs one indirect call, with the state moved as its own
    /// type. The context is checked, not assumed: should a compiler ever give the
    /// closure one, the slot falls back to the type-recording kinds. Unspecialized code
    /// records `State.self` instead (forming the closure there would allocate a context
    /// for the type's metadata on every action).
    @inlinable static func kind<State>(_: State.Type) -> QueuedActionKind {
        if _isConcrete(State.self) {
            let runner = Runner { payload, discarding in
                if discarding {
                    discard(State.self, payload)
                } else {
                    run(State.self, payload)
                }
            }
            let erased = unsafeBitCast(runner, to: ErasedClosure.self)
            if erased.context == nil { return .specialized(erased.function) }
        }
        // A type of no bytes is trivial, so the `Void` code moves and destroys it
        // correctly, and a closure over it takes the same (indirect) argument.
        return MemoryLayout<State>.size == 0 && _isPOD(State.self) ? .empty : .inline(State.self)
    }

    /// The runner whose address a `.specialized` kind holds.
    @inlinable static func runner(_ function: UnsafeRawPointer) -> Runner {
        unsafeBitCast(ErasedClosure(function: function, context: nil), to: Runner.self)
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

    /// Runs the action, leaving what it returned in the payload's place.
    @inlinable static func run<State>(_: State.Type, _ payload: UnsafeMutableRawPointer) {
        let action = unsafeBitCast(payload.assumingMemoryBound(to: ErasedClosure.self).move(), to: ((State) -> Disposable).self)
        let state = (payload + stateOffset).assumingMemoryBound(to: State.self).move()
        payload.initializeMemory(as: Disposable.self, to: action(state))
    }

    @inlinable static func discard<State>(_: State.Type, _ payload: UnsafeMutableRawPointer) {
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
