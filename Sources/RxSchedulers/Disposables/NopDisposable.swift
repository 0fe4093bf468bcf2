/// The disposable that does nothing. An empty struct: it fits an existential's inline
/// buffer, so returning one allocates nothing and needs no shared instance.
@usableFromInline
struct NopDisposable: Disposable {
    @inlinable init() {}

    @inlinable func dispose() {}
}
