import Synchronization

extension ObservableType {
    /// Drops the elements sent within `duration` of subscribing and sends the rest; stop
    /// events pass at any time.
    public func skip(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipFor(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class SkipFor<Element>: Producer<Element> {
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
        let sink = SkipForSink(observer: observer, cancel: cancel)
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            sink.open()
            return Disposables.create()
        }
        return (sink, Disposables.create(timer, source.subscribe(sink)))
    }
}

private final class SkipForSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Set by the timer, read by the source's thread: an atomic (RxSwift's plain Bool is a
    /// data race when the timer runs on another thread). Releasing/acquiring: an element
    /// that sees the gate open was sent after the timer fired.
    private let isOpen = Atomic<Bool>(false)

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if isOpen.load(ordering: .acquiring) { forwardOn(event) }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }

    func open() {
        isOpen.store(true, ordering: .releasing)
    }
}
