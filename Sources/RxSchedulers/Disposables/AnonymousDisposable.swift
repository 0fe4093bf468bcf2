import Synchronization

/// Runs a closure on the first `dispose()`; later calls do nothing.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private var disposeAction: (() -> Void)?

    init(disposeAction: @escaping () -> Void) {
        self.disposeAction = disposeAction
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = disposeAction
        disposeAction = nil
        action?()
    }
}
