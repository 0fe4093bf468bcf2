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

    /// Adds every one of `disposables`; when the bag is already being torn down, disposes
    /// them at once (outside the bag's lock, so a disposal that touches the bag cannot
    /// deadlock).
    public func insert(_ disposables: [Disposable]) {
        let disposeNow: Bool = lock.performLocked {
            if disposed { return true }
            self.disposables += disposables
            return false
        }
        if disposeNow { for disposable in disposables { disposable.dispose() } }
    }

    /// Adds every argument.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the disposables `builder` lists, one per line.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// A bag holding the disposables `builder` lists, one per line.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Lists disposables, one per line, for `init(builder:)` and `insert(builder:)`.
    @resultBuilder
    public struct DisposableBuilder {
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
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
