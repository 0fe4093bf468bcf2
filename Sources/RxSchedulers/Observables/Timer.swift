extension ObservableType where Element: RxAbstractInteger {
    /// `0, 1, 2, …`, the first after `period` and then every `period`, on `scheduler`.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// `0` after `dueTime`; then, with a `period`, `1, 2, …` every period, else completion.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

private final class Timer<Element: RxAbstractInteger>: Producer<Element> {
    private let scheduler: SchedulerType
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.period = period
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        guard let period else {
            let subscription = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                sink.forwardOn(.next(0))
                sink.forwardOn(.completed)
                sink.dispose()
                return Disposables.create()
            }
            return (sink, subscription)
        }
        let lock = Lock()
        let subscription = scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period) { count in
            lock.performLocked { sink.forwardOn(.next(count)) }
            return count &+ 1
        }
        return (sink, subscription)
    }
}
