import Synchronization

/// What `Producer.subscribe` returns: it disposes the operator's sink and the source
/// subscription together, even when disposal is asked for before both are known.
@usableFromInline
final class SinkDisposer: Cancelable, @unchecked Sendable {
    @inlinable static var disposedBit: Int { 1 }
    @inlinable static var assignedBit: Int { 2 }

    @usableFromInline let state = Atomic<Int>(0)
    private var sink: Disposable?
    private var subscription: Disposable?

    init() { Resources.incrementTotal() }

    deinit { Resources.decrementTotal() }

    @inlinable
    var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        stressPoint(.sinkAssigning)
        let previous = state.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedBit == 0, "SinkDisposer: sink and subscription already set")
        if previous & Self.disposedBit != 0 {
            sink.dispose()
            subscription.dispose()
            self.sink = nil
            self.subscription = nil
        }
    }

    @usableFromInline
    func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        stressPoint(.sinkDisposing)
        let sink = self.sink
        let subscription = self.subscription
        self.sink = nil
        self.subscription = nil
        sink?.dispose()
        subscription?.dispose()
    }
}
