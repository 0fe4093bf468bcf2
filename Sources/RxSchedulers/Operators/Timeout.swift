extension ObservableType {
    /// Fails with `RxError.timeout` when the first element, or the next one after each
    /// element, does not arrive within `dueTime` on `scheduler`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` when the first element, or the next one after each element,
    /// does not arrive within `dueTime` on `scheduler`; the source is disposed then.
    public func timeout<Other: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Other, scheduler: SchedulerType) -> Observable<Element>
    where Other.Element == Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private final class Timeout<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let other: Observable<Element>
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }
}

/// Each event from the source and each timer race under the lock: the source's event wins
/// when it arrives before its timer fires (it bumps `generation`, so a timer already on its
/// way finds itself stale); a timer wins when its generation is still current, and from then
/// on the source's events are dropped and `other` is subscribed in the source's place.
private final class TimeoutSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Timeout<Element>
    private let lock = Lock(recursive: true)
    private var generation: UInt64 = 0
    private var switched = false
    /// The source, then `other` once the timer won.
    private let subscription = SerialDisposable()
    private let timer = SerialDisposable()

    init(parent: Timeout<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        startTimer(for: 0)
        original.setDisposable(parent.source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        let (wins, current): (Bool, UInt64) = lock.performLocked {
            guard !switched else { return (false, generation) }
            generation &+= 1
            return (true, generation)
        }
        guard wins else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        } else {
            startTimer(for: current)
        }
    }

    private func startTimer(for scheduled: UInt64) {
        guard !timer.isDisposed else { return }
        timer.disposable = parent.scheduler.scheduleRelative(scheduled, dueTime: parent.dueTime) { scheduled in
            let wins = self.lock.performLocked {
                self.switched = scheduled == self.generation
                return self.switched
            }
            if wins {
                self.subscription.disposable = self.parent.other.subscribe(
                    AnyObserver { event in
                        self.forwardOn(event)
                        if event.isStopEvent { self.dispose() }
                    })
            }
            return Disposables.create()
        }
    }
}
