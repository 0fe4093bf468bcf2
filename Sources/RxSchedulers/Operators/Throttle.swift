extension ObservableType {
    /// At most one element per `dueTime`: the first element of a window passes at once;
    /// with `latest` (the default) the last element that arrived during the window is
    /// sent when it closes. Completion waits for that pending element.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private final class Throttle<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let latest: Bool
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ThrottleSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }
}

private final class ThrottleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Throttle<Element>
    private let lock = Lock(recursive: true)
    private var lastUnsentElement: Element?
    private var lastSentTime: RxTime?
    private var completed = false
    private let pendingSend = SerialDisposable()

    init(parent: Throttle<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        Disposables.create(parent.source.subscribe(self), pendingSend)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked { handle(event) }
    }

    private func handle(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = parent.scheduler.now
            let remaining = lastSentTime.map { parent.dueTime.reduced(bySpanFrom: $0, to: now) } ?? .nanoseconds(0)
            if remaining.isNow {
                sendNow(element)
                return
            }
            guard parent.latest else { return }
            let alreadyScheduled = lastUnsentElement != nil
            lastUnsentElement = element
            if alreadyScheduled { return }
            pendingSend.disposable = parent.scheduler.scheduleRelative((), dueTime: remaining) { _ in
                self.sendPending()
                return Disposables.create()
            }
        case .error:
            lastUnsentElement = nil
            forwardOn(event)
            dispose()
        case .completed:
            if lastUnsentElement != nil {
                completed = true
            } else {
                forwardOn(.completed)
                dispose()
            }
        }
    }

    private func sendNow(_ element: Element) {
        lastUnsentElement = nil
        forwardOn(.next(element))
        pendingSend.disposable = Disposables.create()
        lastSentTime = parent.scheduler.now
    }

    private func sendPending() {
        lock.performLocked {
            if let element = lastUnsentElement { sendNow(element) }
            if completed {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}
