/// Holds one replaceable disposable: setting a new one disposes the previous one.
/// After `dispose()`, anything set is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var current: Disposable?
    private var disposed = false

    public init() { Resources.incrementTotal() }

    deinit { Resources.decrementTotal() }

    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// The current disposable; setting it disposes the one it replaces.
    public var disposable: Disposable {
        get { lock.performLocked { current ?? Disposables.create() } }
        set {
            stressPoint(.serialSetting)
            let (replaced, disposeNew): (Disposable?, Bool) = lock.performLocked {
                if disposed { return (nil, true) }
                let replaced = current
                current = newValue
                return (replaced, false)
            }
            replaced?.dispose()
            if disposeNew { newValue.dispose() }
        }
    }

    public func dispose() {
        let last: Disposable? = lock.performLocked {
            guard !disposed else { return nil }
            disposed = true
            let last = current
            current = nil
            return last
        }
        last?.dispose()
    }
}
