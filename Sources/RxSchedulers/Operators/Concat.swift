import Synchronization

extension ObservableType {
    /// This sequence's elements, then, once it completes, those of `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Concat(sources: [asObservable(), second.asObservable()])
    }

    /// The elements of each sequence in turn; each is subscribed when the one before
    /// it completes. Synchronous sources are chained in a loop, not by recursion.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Concat(sources: Array(sequence))
    }

    /// The elements of each sequence in turn.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(sources: sources)
    }
}

private final class Concat<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ConcatSink(sources: sources, observer: observer, cancel: cancel)
        sink.subscribeNext()
        return (sink, sink.current)
    }
}

private final class ConcatSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let sources: [Observable<Element>]
    private var nextIndex = 0
    /// Requests to move to the next source; only the caller that raises it from zero
    /// subscribes, and it keeps going while requests arrived meanwhile.
    private let pendingMoves = Atomic<Int>(0)
    let current = SerialDisposable()

    init(sources: [Observable<Element>], observer: Observer, cancel: Cancelable) {
        self.sources = sources
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            subscribeNext()
        }
    }

    func subscribeNext() {
        guard pendingMoves.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        repeat {
            if isDisposed { return }
            guard nextIndex < sources.count else {
                forwardOn(.completed)
                dispose()
                return
            }
            let source = sources[nextIndex]
            nextIndex += 1
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(source.subscribe(self))
        } while pendingMoves.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}
