import RxSchedulers

/// A virtual-time scheduler for tests, in integer ticks (RxTest's `TestScheduler`).
///
/// With `simulateProcessingDelay` (the default), work scheduled for now or the past
/// runs one tick later, so a reaction is always observably after its cause.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> {
    /// Default times used by `start`.
    public enum Defaults {
        public static let created = 100
        public static let subscribed = 200
        public static let disposed = 1000
    }

    private let simulateProcessingDelay: Bool

    /// - Parameters:
    ///   - initialClock: the starting virtual time.
    ///   - resolution: seconds per tick, for converting `RxTimeInterval`s.
    ///   - simulateProcessingDelay: run work due now or earlier one tick later.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    override public func adjustScheduledTime(_ time: Int) -> Int {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// An observable that plays `events` at their absolute times.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observable that plays `events` relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observer that records events with this scheduler's clock.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at
    /// `disposed`, runs the scheduler and returns what the observer recorded.
    public func start<OutputSequence: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<OutputSequence.Element> {
        var source: Observable<OutputSequence.Element>?
        var subscription: Disposable?
        let observer = createObserver(OutputSequence.Element.self)
        scheduleAt(created) { source = create().asObservable() }
        scheduleAt(subscribed) { subscription = source!.subscribe(observer) }
        scheduleAt(disposed) { subscription!.dispose() }
        start()
        return observer
    }

    /// `start(created: 100, subscribed: 200, disposed:create:)`.
    public func start<OutputSequence: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<OutputSequence.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`.
    public func start<OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<OutputSequence.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}
