/// A producer whose `run` is a closure built by an operator's `@inlinable` function: the
/// closure, and the per-event closures it creates, are specialized in the caller's module.
/// `run` receives the downstream observer type-erased and the subscription's disposer,
/// and returns the sink and the upstream subscription, as `Producer.run` does.
@usableFromInline
final class ClosureProducer<Element>: Producer<Element> {
    @usableFromInline typealias Run = (AnyObserver<Element>, Cancelable) -> (sink: Disposable, subscription: Disposable)

    @usableFromInline let runHandler: Run

    @inlinable
    init(_ run: @escaping Run) {
        self.runHandler = run
        super.init()
    }

    @usableFromInline
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        runHandler(AnyObserver(observer), cancel)
    }
}
