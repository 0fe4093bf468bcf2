extension ObservableType {
    /// The wrapped element, if any, then completion, delivered at subscription.
    public static func from(optional: Element?) -> Observable<Element> {
        OptionalElement(optional: optional)
    }

    /// The wrapped element, if any, then completion, delivered on `scheduler`: the element
    /// in one scheduled action and the completion in the next (as RxSwift does), or only
    /// the completion when there is no element. Disposing the subscription before an
    /// action ran cancels it.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ScheduledOptionalElement(optional: optional, scheduler: scheduler)
    }
}

private final class OptionalElement<Element>: Producer<Element> {
    private let optional: Element?

    init(optional: Element?) {
        self.optional = optional
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if let element = optional { observer.on(.next(element)) }
        observer.on(.completed)
        return Disposables.create()
    }
}

private final class ScheduledOptionalElement<Element>: Producer<Element> {
    private let optional: Element?
    private let scheduler: ImmediateSchedulerType

    init(optional: Element?, scheduler: ImmediateSchedulerType) {
        self.optional = optional
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let scheduler = scheduler
        let subscription = scheduler.schedule(optional) { optional in
            func complete() -> Disposable {
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
            guard let element = optional else { return complete() }
            sink.forwardOn(.next(element))
            return scheduler.schedule(()) { _ in complete() }
        }
        return (sink, subscription)
    }
}
