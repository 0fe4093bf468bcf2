import Synchronization

/// A unit of work queued by a scheduler that can be skipped once disposed. Class-bound, so
/// a queue of them holds single references (no boxed existential copies per step).
@usableFromInline
protocol ScheduledItemType: AnyObject, Cancelable {
    /// Runs the work and keeps what it returned, to dispose it with the item.
    func invoke()
}

/// An action with its state, queued for later; it is also the disposable the scheduler
/// returns, so one allocation covers both (RxSwift allocates an item plus a
/// `SingleAssignmentDisposable`).
///
/// Its initializer is inlinable, so that a scheduler's inlinable `schedule` allocates it
/// with the item's type known at compile time (a cached metadata access instead of a
/// lookup in the runtime's table).
@usableFromInline
final class ScheduledItem<State>: ScheduledItemType, @unchecked Sendable {
    private static var disposedBit: Int { 1 }
    private static var assignedBit: Int { 2 }

    @usableFromInline let action: (State) -> Disposable
    @usableFromInline let state: State
    @usableFromInline let flags = Atomic<Int>(0)
    /// Written by `invoke` and taken by `dispose`, ordered by `flags` (see `invoke`).
    @usableFromInline @exclusivity(unchecked) var result: Disposable?

    @inlinable
    init(action: @escaping (State) -> Disposable, state: State) {
        self.action = action
        self.state = state
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    @usableFromInline var isDisposed: Bool { flags.load(ordering: .acquiring) & Self.disposedBit != 0 }

    /// The result is published by setting `assignedBit` with release; `dispose` sets
    /// `disposedBit` and takes the result only if it saw `assignedBit` (acquire). If
    /// `invoke` then finds `disposedBit` already set, the disposer saw no result, and
    /// `invoke` disposes it itself: exactly one side does.
    @usableFromInline func invoke() {
        let disposable = action(state)
        result = disposable
        let previous = flags.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 {
            result = nil
            disposable.dispose()
        }
    }

    @usableFromInline func dispose() {
        let previous = flags.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        let disposable = result
        result = nil
        disposable?.dispose()
    }
}
