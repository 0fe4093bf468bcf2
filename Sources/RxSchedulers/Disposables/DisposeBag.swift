/// Disposes everything added to it when it is deinitialized. Adding to a bag that is
/// being torn down disposes the item at once.
public final class DisposeBag: @unchecked Sendable {
    private let lock = Lock()
    private var disposables: [Disposable] = []
    private var disposed = false

    public init() { Resources.incrementTotal() }

    /// Adds `disposable`, to be disposed when the bag goes away.
    public func insert(_ disposable: Disposable) {
        let disposeNow: Bool = lock.performLocked {
            if disposed { return true }
            disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    private func dispose() {
        let all: [Disposable] = lock.performLocked {
            let all = disposables
            disposables = []
            disposed = true
            return all
        }
        for disposable in all { disposable.dispose() }
    }

    deinit {
        dispose()
        Resources.decrementTotal()
    }
}

extension Disposable {
    /// Adds this disposable to `bag`.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
