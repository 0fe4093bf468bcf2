extension ObservableType {
    /// `initialState`, then each state `iterate` makes of the one before, while
    /// `condition` holds for it; then completion. Each step is scheduled on `scheduler`
    /// (recursively, so the trampoline runs it as a loop). An error thrown by
    /// `condition` or `iterate` ends the sequence with it.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            var state = initialState  // the recursion's steps only, which run one at a time
            let subscription = scheduleRecursive(true, on: scheduler) { isFirst, recurse in
                if gate.isClosed { return }
                do {
                    if !isFirst { state = try iterate(state) }
                    if try condition(state) {
                        downstream.on(.next(state))
                        recurse(false)
                    } else {
                        gate.finish(with: .completed, to: downstream)
                    }
                } catch {
                    gate.finish(with: .error(error), to: downstream)
                }
            }
            return (gate, subscription)
        }
    }
}
