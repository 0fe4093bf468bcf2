import Synchronization

extension ObservableType {
    /// A sequence whose subscription runs `subscribe` with the observer. The observer
    /// given to `subscribe` enforces the grammar: after `error` or `completed` it
    /// ignores everything and the subscription is disposed.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

final class AnonymousObservable<Element>: Producer<Element> {
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable

    let subscribeHandler: SubscribeHandler

    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = AnonymousObservableSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink, subscription)
    }
}

private final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let stopped = Atomic<Bool>(false)

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if stopped.load(ordering: .relaxed) { return }
            forwardOn(event)
        case .error, .completed:
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
            forwardOn(event)
            dispose()
        }
    }

    func run(_ parent: AnonymousObservable<Element>) -> Disposable {
        parent.subscribeHandler(AnyObserver(self))
    }
}
