/// Factory namespace for disposables, as in RxSwift.
public struct Disposables {
    private init() {}
}

extension Disposables {
    /// A disposable that does nothing. Allocates nothing; inlined into the caller.
    @inlinable
    public static func create() -> Disposable {
        NopDisposable()
    }

    /// A disposable that runs `dispose` once, on the first `dispose()` call.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(disposeAction: dispose)
    }

    /// A disposable that disposes both arguments, once.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three arguments, once.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes every argument, once.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes every argument, once.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}
