/// The base of operators built from a sink: `subscribe` creates the sink through `run`
/// and returns one disposable that ends both the sink and the upstream subscription.
///
/// The outermost subscribe on a thread goes through the current-thread trampoline, so
/// work scheduled on `CurrentThreadScheduler` during subscription runs after it returns
/// (RxSwift's semantics).
@usableFromInline
class Producer<Element>: Observable<Element> {
    @usableFromInline override init() { super.init() }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if !CurrentThreadScheduler.isScheduleRequired {
            return subscribeNow(observer)
        }
        return CurrentThreadScheduler.instance.schedule(observer) { observer in
            self.subscribeNow(observer)
        }
    }

    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let disposer = SinkDisposer()
        let (sink, subscription) = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sink, subscription: subscription)
        return disposer
    }

    /// Creates the operator's sink and subscribes it upstream.
    @usableFromInline func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        fatalError("Abstract method \(type(of: self)).run")
    }
}
