import Synchronization

/// Disposes two disposables once, on the first `dispose()`.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private var disposable1: Disposable?
    private var disposable2: Disposable?

    init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.disposable1 = disposable1
        self.disposable2 = disposable2
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let first = disposable1
        let second = disposable2
        disposable1 = nil
        disposable2 = nil
        first?.dispose()
        second?.dispose()
    }
}
