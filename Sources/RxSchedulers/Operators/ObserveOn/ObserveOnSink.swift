import Synchronization

/// What every observe(on:) strategy's sink shares: the downstream observer, the
/// subscription's disposer, and the gate that admits events until the first stop event
/// or disposal (so the observer sees at most one stop event).
@usableFromInline
class ObserveOnSink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    @usableFromInline typealias Element = Observer.Element

    @usableFromInline final let observer: Observer
    @usableFromInline final let cancel: Cancelable
    /// `cancel` when it is the usual `SinkDisposer`: checked with one load per event
    /// instead of a call through the existential.
    @usableFromInline final let disposer: SinkDisposer?
    @usableFromInline final let stopped = Atomic<Bool>(false)

    @usableFromInline
    init(observer: Observer, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
        self.disposer = cancel as? SinkDisposer
        Resources.incrementTotal()
    }

    /// Whether the subscription has been disposed: deliveries stop at once.
    @inlinable
    final var isCancelled: Bool {
        if let disposer { return disposer.isDisposed }
        return cancel.isDisposed
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
