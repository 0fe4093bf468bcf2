import Synchronization

/// The state a closure-built sink needs: whether it has stopped, and what to dispose when
/// it stops. `stop()` succeeds once, so a sink forwards at most one stop event; as in
/// RxSwift, a sink forwards its stop event first and disposes afterwards.
@usableFromInline
final class SinkGate: Disposable, @unchecked Sendable {
    @usableFromInline let stopped = Atomic<Bool>(false)
    @usableFromInline let onClose: Disposable

    @inlinable
    init(disposing onClose: Disposable) {
        self.onClose = onClose
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    /// Whether the sink has stopped (a relaxed load: the per-event check).
    @inlinable
    var isClosed: Bool { stopped.load(ordering: .relaxed) }

    /// Marks the sink stopped; returns `false` if it had already stopped. The caller
    /// forwards its stop event, then calls `dispose()`.
    @inlinable
    func stop() -> Bool {
        !stopped.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Sends the stop event `event` to `downstream` and disposes, unless the sink had
    /// already stopped: the one way closure-built operators end.
    @inlinable
    func finish<Element>(with event: Event<Element>, to downstream: AnyObserver<Element>) {
        if sendStop(event, to: downstream) { dispose() }
    }

    /// Sends the stop event `event` to `downstream` unless the sink had already stopped,
    /// and returns whether it did; the caller then calls `dispose()`. For operators that
    /// send under a lock of their own and must dispose only once they released it (a
    /// source's teardown may take its own locks, RxSwift #2711).
    @inlinable
    func sendStop<Element>(_ event: Event<Element>, to downstream: AnyObserver<Element>) -> Bool {
        guard stop() else { return false }
        downstream.on(event)
        return true
    }

    /// Passes `event` on as a relaying sink does: `next` while open, a stop event once
    /// (then disposes).
    @inlinable
    func relay<Element>(_ event: Event<Element>, to downstream: AnyObserver<Element>) {
        if event.isStopEvent {
            finish(with: event, to: downstream)
        } else if !isClosed {
            downstream.on(event)
        }
    }

    /// Marks the sink stopped and disposes `onClose`.
    @inlinable
    func dispose() {
        stopped.store(true, ordering: .releasing)
        onClose.dispose()
    }
}
