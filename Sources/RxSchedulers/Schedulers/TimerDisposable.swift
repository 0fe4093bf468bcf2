import Dispatch
import Synchronization

/// Owns a dispatch timer and, once a one-shot timer fired, what its action returned.
/// Disposing cancels the timer (releasing its handler) and disposes that result.
final class TimerDisposable: Cancelable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private let lock = Lock()
    private var timer: DispatchSourceTimer?
    private var result: Disposable?

    init(timer: DispatchSourceTimer) {
        self.timer = timer
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Records a one-shot timer's result and releases the timer.
    func fired(with disposable: Disposable) {
        let (timer, disposeNow): (DispatchSourceTimer?, Bool) = lock.performLocked {
            let timer = self.timer
            self.timer = nil
            if disposed.load(ordering: .acquiring) { return (timer, true) }
            result = disposable
            return (timer, false)
        }
        timer?.cancel()
        if disposeNow { disposable.dispose() }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (timer, result): (DispatchSourceTimer?, Disposable?) = lock.performLocked {
            let pair = (self.timer, self.result)
            self.timer = nil
            self.result = nil
            return pair
        }
        timer?.cancel()
        result?.dispose()
    }
}
