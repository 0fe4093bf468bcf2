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
final class ScheduledItem<State>: ScheduledItemType, @unchecked Sendable {
    private static var disposedBit: Int { 1 }
    private static var assignedBit: Int { 2 }

    private let action: (State) -> Disposable
    private let state: State
    private let flags = Atomic<Int>(0)
    private var result: Disposable?

    init(action: @escaping (State) -> Disposable, state: State) {
        self.action = action
        self.state = state
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    var isDisposed: Bool { flags.load(ordering: .acquiring) & Self.disposedBit != 0 }

    func invoke() {
        let disposable = action(state)
        result = disposable
        let previous = flags.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 {
            result = nil
            disposable.dispose()
        }
    }

    func dispose() {
        let previous = flags.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        let disposable = result
        result = nil
        disposable?.dispose()
    }
}
