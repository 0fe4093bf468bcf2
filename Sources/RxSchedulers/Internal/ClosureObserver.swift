/// An observer that hands each event to a closure.
///
/// The hot operators (`map`, `filter`, `merge`/`flatMap`, `create`, `subscribe(on:)`,
/// `range`, `of`/`from`, `observe(on:)`'s drain, `subscribe(onNext:…)`) build their
/// per-event logic as a closure inside an `@inlinable` function, so it is compiled,
/// specialized, in the caller's module; this class only passes the event on. That
/// removes the generic metadata lookups unspecialized operator code pays on every event
/// (about half of an operator hop's cost, as profiled on Linux).
@usableFromInline
final class ClosureObserver<Element>: ObserverType {
    @usableFromInline let handler: (Event<Element>) -> Void

    @inlinable
    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    @inlinable
    func on(_ event: Event<Element>) { handler(event) }
}
