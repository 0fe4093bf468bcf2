import Synchronization

/// A disposable that only records whether it was disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
    private let disposed: Atomic<Bool>

    /// A disposable that has not been disposed yet.
    public init() {
        disposed = Atomic(false)
        Resources.incrementTotal()
    }

    /// A disposable in the given state.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    public func dispose() { disposed.store(true, ordering: .releasing) }
}
