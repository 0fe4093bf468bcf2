import RxSchedulers

/// An observer that records every event with the scheduler's clock.
public final class TestableObserver<Element>: ObserverType {
    private let scheduler: TestScheduler

    /// The events received, in order, with the virtual time of each.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }
}
