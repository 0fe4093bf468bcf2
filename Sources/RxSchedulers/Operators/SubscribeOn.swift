extension ObservableType {
    /// Subscribes to the source, and disposes that subscription, on `scheduler`.
    /// Events are delivered on whatever thread the source sends them. The per-event
    /// code is specialized in the caller.
    ///
    /// The source is subscribed as it is, not through `asObservable()`: wrapping a type that
    /// is not an `Observable` would dispose it inline when it stops, and the only disposal
    /// must be the one scheduled on `scheduler` (as in RxSwift).
    @inlinable
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = self
        return ClosureProducer<Element> { downstream, cancel in
            let gate = SinkGate(disposing: cancel)
            let upstream = ClosureObserver<Element> { event in gate.relay(event, to: downstream) }
            return (gate, subscribeScheduled(source, upstream, on: scheduler))
        }
    }
}

/// Subscribes `observer` to `source` on `scheduler`; the returned disposable cancels the
/// pending subscription, or disposes the subscription on `scheduler` once it exists.
@usableFromInline
func subscribeScheduled<Source: ObservableType>(
    _ source: Source, _ observer: ClosureObserver<Source.Element>, on scheduler: ImmediateSchedulerType
) -> Disposable {
    let everything = SerialDisposable()
    let pendingSchedule = SingleAssignmentDisposable()
    everything.disposable = pendingSchedule
    pendingSchedule.setDisposable(
        scheduler.schedule(()) { _ in
            let subscription = source.subscribe(observer)
            everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
    return everything
}
