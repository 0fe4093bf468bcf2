extension ObservableType {
    /// The elements sent within `duration` of subscribing, then completion: a timer on
    /// `scheduler` completes the sequence and disposes the source when it fires.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeFor(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class TakeFor<Element>: Producer<Element> {
    let source: Observable<Element>
    let duration: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeForSink(observer: observer, cancel: cancel)
        // The timer first, as RxSwift does: a source that emits on subscription is still timed from here.
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            sink.expire()
            return Disposables.create()
        }
        return (sink, Disposables.create(timer, source.subscribe(sink)))
    }
}

private final class TakeForSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Serializes the source's events with the timer's completion (they may come from two threads).
    private let lock = Lock(recursive: true)

    func on(_ event: Event<Element>) {
        lock.performLocked {
            forwardOn(event)
            if event.isStopEvent { dispose() }
        }
    }

    func expire() {
        lock.performLocked {
            forwardOn(.completed)
            dispose()
        }
    }
}
