import Dispatch
import Synchronization

/// The catch-up policy on a dispatch queue. A repeating timer on a private queue counts
/// ticks (including fires the timer merged, via its `data`), so ticks keep being counted
/// while the action stalls the target queue; each counted tick runs the action once,
/// in order, on the target queue, as soon as the previous run has finished.
final class DispatchPeriodicCatchUp<State>: Cancelable, @unchecked Sendable {
    private let queue: DispatchQueue
    private let leeway: DispatchTimeInterval
    private let action: (State) -> State
    private var state: State
    private let pendingTicks = Atomic<Int>(0)
    private let disposed = Atomic<Bool>(false)
    private let lock = Lock()
    private var timer: DispatchSourceTimer?

    init(queue: DispatchQueue, leeway: DispatchTimeInterval, action: @escaping (State) -> State, state: State) {
        self.queue = queue
        self.leeway = leeway
        self.action = action
        self.state = state
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func start(after startAfter: RxTimeInterval, period: RxTimeInterval) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rx.periodic.catch-up.ticks", qos: .userInteractive))
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        // The handler and the timer reference each other until `dispose()` cancels the timer,
        // which releases the handler.
        timer.setEventHandler {
            let fired = max(1, Int(timer.data))
            stressPoint(.periodicTicked)
            if self.pendingTicks.wrappingAdd(fired, ordering: .acquiringAndReleasing).oldValue == 0 {
                self.queue.async { self.runPendingTick() }
            }
        }
        lock.performLocked { self.timer = timer }
        timer.resume()
        return self
    }

    private func runPendingTick() {
        if isDisposed { return }
        state = action(state)
        if pendingTicks.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
            queue.async { self.runPendingTick() }
        }
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let timer: DispatchSourceTimer? = lock.performLocked {
            let timer = self.timer
            self.timer = nil
            return timer
        }
        timer?.cancel()
    }
}
