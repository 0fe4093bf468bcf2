extension ObservableType {
    /// On each of `sampler`'s elements (and on its completion), the source's latest element
    /// since the previous sample — or `defaultValue`, when there was none and one is given.
    /// Completes at the first sample after the source completed; fails when either fails.
    public func sample<Sampler: ObservableType>(_ sampler: Sampler, defaultValue: Element? = nil) -> Observable<Element> {
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private final class Sample<Element, Tick>: Producer<Element> {
    let source: Observable<Element>
    let sampler: Observable<Tick>
    let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<Tick>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = SampleSink(defaultValue: defaultValue, observer: observer, cancel: cancel)
        return (sink, sink.run(source: source, sampler: sampler))
    }
}

private final class SampleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let lock = Lock(recursive: true)
    private let defaultValue: Element?
    private var latest: Element?
    private var sourceCompleted = false
    private let sourceSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, observer: Observer, cancel: Cancelable) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel)
    }

    func run<Tick>(source: Observable<Element>, sampler: Observable<Tick>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        let ticks = sampler.subscribe(AnyObserver<Tick> { event in self.tick(event) })
        return Disposables.create(sourceSubscription, ticks)
    }

    /// The source's events.
    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                latest = element
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                // The last element waits for the next sample, which also completes.
                sourceCompleted = true
                sourceSubscription.dispose()
            }
        }
    }

    /// The sampler's events.
    private func tick<Tick>(_ event: Event<Tick>) {
        lock.performLocked {
            switch event {
            case .next, .completed:
                if let element = latest ?? defaultValue {
                    latest = nil
                    forwardOn(.next(element))
                }
                if sourceCompleted {
                    forwardOn(.completed)
                    dispose()
                }
            case .error(let error):
                forwardOn(.error(error))
                dispose()
            }
        }
    }
}
