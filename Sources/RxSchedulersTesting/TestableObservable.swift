import RxSchedulers

/// An observable that plays back recorded events on a `TestScheduler` and records
/// when it was subscribed and unsubscribed.
public class TestableObservable<Element>: ObservableType {
    /// The events it plays.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Its subscriptions, in the order they started.
    public internal(set) var subscriptions: [Subscription] = []

    let testScheduler: TestScheduler

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Abstract method")
    }

    /// Marks the subscription at `index` as ended now.
    func endSubscription(at index: Int) {
        let started = subscriptions[index]
        subscriptions[index] = Subscription(started.subscribe, testScheduler.clock)
    }
}
