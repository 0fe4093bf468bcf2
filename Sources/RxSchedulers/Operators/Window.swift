extension ObservableType {
    /// Splits the elements into windows, each an observable sequence: a window closes (and
    /// the next opens) when it holds `count` elements or `timeSpan` after it opened,
    /// whichever is first. The first window opens on subscription. The source stays
    /// subscribed while the outer subscription or any subscription to a window lasts.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        precondition(count > 0, "window count must be positive")
        return Window(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class Window<Element>: Producer<Observable<Element>> {
    let source: Observable<Element>
    let timeSpan: RxTimeInterval
    let count: Int
    let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Observable<Element> {
        let sink = WindowSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }
}

/// The open window is a `PublishSubject`; each window is handed out wrapped so that
/// subscribing to it holds a reference on the shared `RefCountDisposable`, which disposes
/// the source and the timer only when the outer subscription and every window subscription
/// have ended. Generations make a timer for a window already closed by `count` do nothing.
private final class WindowSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == Observable<Element> {
    private let parent: Window<Element>
    private let lock = Lock(recursive: true)
    private var subject = PublishSubject<Element>()
    private var received = 0
    private var generation: UInt64 = 0
    private let timer = SerialDisposable()
    private let group = CompositeDisposable()
    private let references: RefCountDisposable

    init(parent: Window<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        _ = group.insert(timer)
        references = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        lock.performLocked {
            forwardOn(.next(WindowReference(source: subject, references: references).asObservable()))
            startTimer(for: generation)
        }
        _ = group.insert(parent.source.subscribe(self))
        return references
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next:
                subject.on(event)
                received += 1
                if received == parent.count { closeAndOpenWindow() }
            case .error(let error):
                subject.on(event)
                forwardOn(.error(error))
                dispose()
            case .completed:
                subject.on(event)
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Called with the lock held.
    private func closeAndOpenWindow() {
        received = 0
        generation &+= 1
        subject.on(.completed)
        subject = PublishSubject()
        forwardOn(.next(WindowReference(source: subject, references: references).asObservable()))
        startTimer(for: generation)
    }

    /// Called with the lock held.
    private func startTimer(for scheduled: UInt64) {
        guard !timer.isDisposed else { return }
        timer.disposable = parent.scheduler.scheduleRelative(scheduled, dueTime: parent.timeSpan) { scheduled in
            self.lock.performLocked {
                if scheduled == self.generation { self.closeAndOpenWindow() }
            }
            return Disposables.create()
        }
    }
}

/// A window as its subscribers see it: subscribing retains the window's shared
/// `RefCountDisposable` until the subscription ends.
private final class WindowReference<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let references: RefCountDisposable

    init(source: Observable<Element>, references: RefCountDisposable) {
        self.source = source
        self.references = references
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let release = references.retain()
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        return (sink, Disposables.create(release, source.subscribe(sink)))
    }
}
