extension ObservableType {
    /// Subscribes to the source only after `dueTime` on `scheduler`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySubscription<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let source = self.source
        let subscription = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            source.subscribe(sink)
        }
        return (sink, subscription)
    }
}
