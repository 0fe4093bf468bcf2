import RxSchedulers

/// Plays its events to each subscriber, at times relative to that subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            let item = testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            }
            _ = scheduled.insert(item)
        }
        return Disposables.create {
            self.endSubscription(at: index)
            scheduled.dispose()
        }
    }
}
