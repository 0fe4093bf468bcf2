/// A resource that can be released. `dispose()` may be called more than once and from
/// any thread; only the first call has an effect.
public protocol Disposable {
    /// Releases the resource.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
