import RxSchedulers

/// Plays its events at their absolute times, whether or not anyone is subscribed;
/// subscribers see what is played while they are subscribed.
///
/// The scheduled events hold the observable weakly: a subscription keeps it alive (its
/// disposable refers to it), and one that nobody holds or subscribes to plays to nobody.
/// (Unowned, they trapped when a test let go of a hot observable it never subscribed to
/// before its events were due: in a release build Swift may release a local after its
/// last use.)
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextObserverID = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for id in self.observers.keys.sorted() {
                    self.observers[id]?.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = AnyObserver(observer)
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create {
            self.observers[id] = nil
            self.endSubscription(at: index)
        }
    }
}
