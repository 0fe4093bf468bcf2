/// A group of disposables disposed together.
///
/// Once the group is disposed, every disposable inserted later is disposed at once and
/// `insert` returns `nil`. Removing by key disposes the removed item.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// Identifies an inserted disposable for `remove(for:)`.
    public struct DisposeKey: Hashable {
        fileprivate let key: BagKey
    }

    private let lock = Lock()
    private var disposables: Bag<Disposable>? = Bag()

    public init() { Resources.incrementTotal() }

    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        _ = disposables!.insert(disposable1)
        _ = disposables!.insert(disposable2)
        Resources.incrementTotal()
    }

    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        _ = disposables!.insert(disposable1)
        _ = disposables!.insert(disposable2)
        _ = disposables!.insert(disposable3)
        Resources.incrementTotal()
    }

    public init(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...
    ) {
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables { _ = self.disposables!.insert(disposable) }
        Resources.incrementTotal()
    }

    public init(disposables: [Disposable]) {
        for disposable in disposables { _ = self.disposables!.insert(disposable) }
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    public var isDisposed: Bool { lock.performLocked { disposables == nil } }

    /// The number of disposables in the group.
    public var count: Int { lock.performLocked { disposables?.count ?? 0 } }

    /// Adds `disposable`, or disposes it at once and returns `nil` when the group has
    /// already been disposed.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: BagKey? = lock.performLocked {
            guard disposables != nil else { return nil }
            return disposables!.insert(disposable)
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// Removes and disposes the disposable inserted under `disposeKey`.
    public func remove(for disposeKey: DisposeKey) {
        let removed: Disposable? = lock.performLocked {
            guard disposables != nil else { return nil }
            return disposables!.removeValue(forKey: disposeKey.key)
        }
        removed?.dispose()
    }

    public func dispose() {
        let all: Bag<Disposable>? = lock.performLocked {
            let all = disposables
            disposables = nil
            return all
        }
        all?.forEach { $0.dispose() }
    }
}
