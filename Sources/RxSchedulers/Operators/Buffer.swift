extension ObservableType {
    /// Collects elements into arrays, sending each when it holds `count` elements or when
    /// `timeSpan` has passed since the previous one was sent, whichever is first — an empty
    /// array when nothing came in that time. On completion the array collected so far is
    /// sent (even empty), then the completion; an error drops it.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        precondition(count > 0, "buffer count must be positive")
        return Buffer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class Buffer<Element>: Producer<[Element]> {
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
    where Observer.Element == [Element] {
        let sink = BufferSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }
}

/// Each sent array starts a new window with its own generation; a timer only sends when its
/// generation is still the current one, so a window cut short by `count` leaves its timer
/// with nothing to do.
private final class BufferSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == [Element] {
    private let parent: Buffer<Element>
    private let lock = Lock(recursive: true)
    private var buffer: [Element] = []
    private var generation: UInt64 = 0
    private let timer = SerialDisposable()

    init(parent: Buffer<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        lock.performLocked { startTimer(for: generation) }
        return Disposables.create(timer, parent.source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                buffer.append(element)
                if buffer.count == parent.count { sendAndStartNewWindow() }
            case .error(let error):
                buffer = []
                forwardOn(.error(error))
                dispose()
            case .completed:
                forwardOn(.next(buffer))
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Called with the lock held.
    private func sendAndStartNewWindow() {
        generation &+= 1
        let full = buffer
        buffer = []
        forwardOn(.next(full))
        startTimer(for: generation)
    }

    /// Called with the lock held.
    private func startTimer(for scheduled: UInt64) {
        guard !timer.isDisposed else { return }
        timer.disposable = parent.scheduler.scheduleRelative(scheduled, dueTime: parent.timeSpan) { scheduled in
            self.lock.performLocked {
                if scheduled == self.generation { self.sendAndStartNewWindow() }
            }
            return Disposables.create()
        }
    }
}
