import Synchronization

/// Disposes its underlying disposable once it has itself been disposed *and* every
/// dependent disposable `retain()` handed out has been disposed too, as RxSwift's.
///
/// `isDisposed` is true once the underlying disposable has been disposed (or is about to
/// be, by the call that made it so). A `retain()` after that returns a disposable that
/// does nothing. The underlying disposable is disposed outside the lock.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    public init(disposable: Disposable) {
        self.disposable = disposable
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    public var isDisposed: Bool { lock.performLocked { disposable == nil } }

    /// A dependent disposable: until it is disposed, disposing this one does not reach the
    /// underlying disposable.
    public func retain() -> Disposable {
        lock.performLocked {
            guard disposable != nil else { return Disposables.create() }
            count += 1
            return RefCountInnerDisposable(parent: self)
        }
    }

    /// Disposes the underlying disposable now if no dependent is outstanding, else when
    /// the last one is disposed. Only the first call counts.
    public func dispose() {
        let underlying: Disposable? = lock.performLocked {
            guard let current = disposable, !primaryDisposed else { return nil }
            primaryDisposed = true
            guard count == 0 else { return nil }
            disposable = nil
            return current
        }
        underlying?.dispose()
    }

    /// A dependent was disposed.
    fileprivate func release() {
        let underlying: Disposable? = lock.performLocked {
            guard let current = disposable else { return nil }
            precondition(count > 0, "RefCountDisposable released more often than retained")
            count -= 1
            guard primaryDisposed, count == 0 else { return nil }
            disposable = nil
            return current
        }
        underlying?.dispose()
    }
}

/// What `RefCountDisposable.retain()` hands out: releases its parent once, on the first
/// `dispose()`.
private final class RefCountInnerDisposable: Disposable, @unchecked Sendable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)

    init(parent: RefCountDisposable) {
        self.parent = parent
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) { parent.release() }
    }
}
