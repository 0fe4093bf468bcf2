extension ObservableType {
    /// The given elements, then completion, each delivered through `scheduler`
    /// (default: the trampoline, so they arrive during subscription without recursion).
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler)
    }

    /// The array's elements, then completion.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler)
    }

    /// The sequence's elements, then completion.
    public static func from<Source: Swift.Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element>
    where Source.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }
}

private final class ObservableSequence<Source: Swift.Sequence>: Producer<Source.Element> {
    let elements: Source
    let scheduler: ImmediateSchedulerType

    init(elements: Source, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let subscription = scheduler.scheduleRecursive(elements.makeIterator()) { iterator, recurse in
            var iterator = iterator
            if let next = iterator.next() {
                sink.forwardOn(.next(next))
                recurse(iterator)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}
