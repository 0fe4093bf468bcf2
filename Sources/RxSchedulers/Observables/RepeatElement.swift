extension ObservableType {
    /// `element` again and again, each sent from its own step on `scheduler`; it never
    /// ends by itself.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let subscription = scheduleRecursive((), on: scheduler) { _, recurse in
                if gate.isClosed { return }
                downstream.on(.next(element))
                recurse(())
            }
            return (gate, subscription)
        }
    }
}
