import Synchronization

/// Holds one disposable that is assigned later, exactly once.
///
/// Disposing before assignment makes the assigned disposable be disposed as soon as it
/// is set. Assigning twice is a programming error and traps.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private static let disposedBit = 1
    private static let assignedBit = 2

    private let state = Atomic<Int>(0)
    private var current: Disposable?

    public init() { Resources.incrementTotal() }

    deinit { Resources.decrementTotal() }

    /// The state's bits, for the publish-order probe's layout check.
    var stateBits: Int { state.load(ordering: .relaxed) }

    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedBit != 0
    }

    /// Sets the inner disposable. Traps when called twice.
    public func setDisposable(_ disposable: Disposable) {
        current = disposable
        let previous = state.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedBit == 0, "SingleAssignmentDisposable: disposable already set")
        if previous & Self.disposedBit != 0 {
            disposable.dispose()
            current = nil
        }
    }

    public func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        let disposable = current
        current = nil
        disposable?.dispose()
    }
}
