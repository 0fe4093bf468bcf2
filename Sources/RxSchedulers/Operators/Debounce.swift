extension ObservableType {
    /// Sends an element only after `dueTime` has passed without a newer one. On
    /// completion the pending element, if any, is sent first.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class Debounce<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DebounceSink(parent: self, observer: observer, cancel: cancel)
        return (sink, sink.run())
    }
}

private final class DebounceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Debounce<Element>
    private let lock = Lock(recursive: true)
    private var generation: UInt64 = 0
    private var pending: Element?
    private let timer = SerialDisposable()

    init(parent: Debounce<Element>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        Disposables.create(parent.source.subscribe(self), timer)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                generation &+= 1
                let current = generation
                pending = element
                timer.disposable = parent.scheduler.scheduleRelative(current, dueTime: parent.dueTime) { generation in
                    self.fire(generation)
                    return Disposables.create()
                }
            case .error:
                pending = nil
                forwardOn(event)
                dispose()
            case .completed:
                if let element = pending {
                    pending = nil
                    forwardOn(.next(element))
                }
                forwardOn(.completed)
                dispose()
            }
        }
    }

    private func fire(_ scheduledGeneration: UInt64) {
        lock.performLocked {
            guard scheduledGeneration == generation, let element = pending else { return }
            pending = nil
            forwardOn(.next(element))
        }
    }
}
