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
        runHandler(Self.downstream(for: observer), cancel)
    }

    /// `observer` type-erased. A closure-built operator's observer is erased to its
    /// handler itself, which saves one indirect call per event and hop.
    private static func downstream<Observer: ObserverType>(for observer: Observer) -> AnyObserver<Element>
    where Observer.Element == Element {
        if let closureObserver = observer as? ClosureObserver<Element> {
            return AnyObserver(eventHandler: closureObserver.handler)
        }
        return AnyObserver(observer)
    }
}
