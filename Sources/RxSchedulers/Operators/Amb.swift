extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first; the other
    /// is disposed at that moment.
    public func amb<Right: ObservableType>(_ right: Right) -> Observable<Element> where Right.Element == Element {
        Amb(left: asObservable(), right: right.asObservable())
    }

    /// Mirrors whichever of the sequences sends an event first.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        sequence.reduce(Observable<Element>.never()) { $0.amb($1) }
    }
}

private final class Amb<Element>: Producer<Element> {
    let left: Observable<Element>
    let right: Observable<Element>

    init(left: Observable<Element>, right: Observable<Element>) {
        self.left = left
        self.right = right
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = AmbSink(observer: observer, cancel: cancel)
        return (sink, sink.run(left: left, right: right))
    }
}

private final class AmbSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    private enum Side {
        case left
        case right
    }

    private let lock = Lock(recursive: true)
    private var winner: Side?
    private let leftSubscription = SingleAssignmentDisposable()
    private let rightSubscription = SingleAssignmentDisposable()

    func run(left: Observable<Element>, right: Observable<Element>) -> Disposable {
        let subscriptions = Disposables.create(leftSubscription, rightSubscription)
        leftSubscription.setDisposable(left.subscribe(AnyObserver { self.on($0, from: .left) }))
        rightSubscription.setDisposable(right.subscribe(AnyObserver { self.on($0, from: .right) }))
        return subscriptions
    }

    private func on(_ event: Event<Element>, from side: Side) {
        lock.performLocked {
            if winner == nil {
                winner = side
                (side == .left ? rightSubscription : leftSubscription).dispose()
            }
            guard winner == side else { return }
            forwardOn(event)
            if event.isStopEvent { dispose() }
        }
    }
}
