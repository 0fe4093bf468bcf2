/// The integer types `range`, `timer` and `interval` produce.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `start, start + 1, …` (`count` elements), then completion, through `scheduler`.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        precondition(start &+ (count - 1) >= start || count == 0, "overflow of count")
        return RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

private final class RangeProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, cancel: cancel)
        let start = self.start, count = self.count
        let subscription = scheduler.scheduleRecursive(0 as Element) { index, recurse in
            if index < count {
                sink.forwardOn(.next(start + index))
                recurse(index + 1)
            } else {
                sink.forwardOn(.completed)
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}
