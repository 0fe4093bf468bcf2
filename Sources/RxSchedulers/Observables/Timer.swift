extension ObservableType where Element: RxAbstractInteger {
    /// `0, 1, 2, …`, the first after `period` and then every `period`, on `scheduler`.
    /// Ticks missed by a slow subscriber are handled by `policy`; `nil` leaves it to the
    /// scheduler's `schedulePeriodic` (catch-up on every scheduler of the core).
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType, policy: PeriodicPolicy? = nil) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler, policy: policy)
    }

    /// `0` after `dueTime`; then, with a `period`, `1, 2, …` every period (missed ticks
    /// handled as in `interval`), else completion.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType, policy: PeriodicPolicy? = nil)
        -> Observable<Element>
    {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler, policy: policy)
    }
}

private final class Timer<Element: RxAbstractInteger>: Producer<Element> {
    private let scheduler: SchedulerType
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let policy: PeriodicPolicy?

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType, policy: PeriodicPolicy?) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.period = period
        self.policy = policy
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
        let tick: (Element) -> Element = { count in
            lock.performLocked { sink.forwardOn(.next(count)) }
            return count &+ 1
        }
        let subscription =
            policy.map { scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period, policy: $0, action: tick) }
            ?? scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period, action: tick)
        return (sink, subscription)
    }
}
