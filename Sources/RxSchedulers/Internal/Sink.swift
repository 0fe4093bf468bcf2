import Synchronization

/// Holds an operator's downstream observer; after `dispose()` it forwards nothing more.
class Sink<Observer: ObserverType>: Disposable {
    final let observer: Observer
    final let cancel: Cancelable
    private let disposed = Atomic<Bool>(false)

    init(observer: Observer, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    /// Sends `event` downstream unless this sink has been disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if disposed.load(ordering: .relaxed) { return }
        observer.on(event)
    }

    final var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Stops forwarding and disposes the whole subscription.
    func dispose() {
        disposed.store(true, ordering: .releasing)
        cancel.dispose()
    }
}
