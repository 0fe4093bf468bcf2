extension ObservableType {
    /// Subscribes to the source, and disposes that subscription, on `scheduler`.
    /// Events are delivered on whatever thread the source sends them.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: asObservable(), scheduler: scheduler)
    }
}

private final class SubscribeOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let everything = SerialDisposable()
        let pendingSchedule = SingleAssignmentDisposable()
        everything.disposable = pendingSchedule
        let source = self.source, scheduler = self.scheduler
        pendingSchedule.setDisposable(scheduler.schedule(()) { _ in
            let subscription = source.subscribe(sink)
            everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
        return (sink, everything)
    }
}
