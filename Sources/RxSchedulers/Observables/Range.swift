/// The integer types `range`, `timer` and `interval` produce.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `start, start + 1, …` (`count` elements), then completion, through `scheduler`.
    /// The per-element code is specialized in the caller.
    @inlinable
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<
        Element
    > {
        precondition(count >= 0, "count can't be negative")
        precondition(start &+ (count - 1) >= start || count == 0, "overflow of count")
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let subscription = scheduleRecursive(0 as Element, on: scheduler) { index, recurse in
                if gate.isClosed { return }
                if index < count {
                    downstream.on(.next(start + index))
                    recurse(index + 1)
                } else {
                    gate.finish(with: .completed, to: downstream)
                }
            }
            return (gate, subscription)
        }
    }
}
