/// The disposable that does nothing; shared, so returning it costs nothing.
struct NopDisposable: Disposable {
    static let noOp: Disposable = NopDisposable()

    func dispose() {}
}
