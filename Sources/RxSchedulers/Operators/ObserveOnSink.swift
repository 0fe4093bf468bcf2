import Synchronization

/// What every observe(on:) strategy's sink shares: the downstream observer, the
/// subscription's disposer, and the gate that admits events until the first stop event
/// or disposal (so the observer sees at most one stop event).
@usableFromInline
class ObserveOnSink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    @usableFromInline typealias Element = Observer.Element

    @usableFromInline final let observer: Observer
    @usableFromInline final let cancel: Cancelable
    @usableFromInline final let stopped = Atomic<Bool>(false)

    @usableFromInline
    init(observer: Observer, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    /// Whether `event` may be handed over: `next` until stopped, and the first stop event.
    @inlinable
    final func admits(_ event: Event<Element>) -> Bool {
        if event.isStopEvent {
            return !stopped.exchange(true, ordering: .acquiringAndReleasing)
        }
        return !stopped.load(ordering: .relaxed)
    }

    /// Stops admitting events and disposes the subscription.
    @usableFromInline
    func dispose() {
        stopped.store(true, ordering: .releasing)
        cancel.dispose()
    }
}
