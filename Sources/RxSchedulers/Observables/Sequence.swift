extension ObservableType {
    /// The given elements, then completion, each delivered through `scheduler`
    /// (default: the trampoline, so they arrive during subscription without recursion).
    @inlinable
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        Self.elements(of: elements, scheduler: scheduler)
    }

    /// The array's elements, then completion.
    @inlinable
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        elements(of: array, scheduler: scheduler)
    }

    /// The sequence's elements, then completion.
    @inlinable
    public static func from<Source: Swift.Sequence>(_ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance)
        -> Observable<Element>
    where Source.Element == Element {
        elements(of: sequence, scheduler: scheduler)
    }

    /// What `of` and `from` build: one recursive step per element, its code specialized
    /// in the caller.
    @inlinable
    static func elements<Source: Swift.Sequence>(of sequence: Source, scheduler: ImmediateSchedulerType) -> Observable<Element>
    where Source.Element == Element {
        ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let subscription = scheduleRecursive(sequence.makeIterator(), on: scheduler) { iterator, recurse in
                if gate.isClosed { return }
                var iterator = iterator
                if let next = iterator.next() {
                    downstream.on(.next(next))
                    recurse(iterator)
                } else {
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, subscription)
        }
    }
}
