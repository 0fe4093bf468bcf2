import Synchronization

/// A late subscriber's handler while it is replayed to (by `share(replay:)` or a
/// `ReplaySubject`): live events that arrive meanwhile (from another thread, or from the
/// subscriber's own handler) wait, in order, and are delivered when the replay is done;
/// from then on events pass straight through. The replay and the waiting events are
/// delivered outside every lock.
final class ReplayGate<Element>: @unchecked Sendable {
    private let downstream: (Event<Element>) -> Void
    private let lock = SpinningLock()
    /// Set, with release, once the replay and every waiting event were delivered; read
    /// with acquire on each event, the only cost of the gate after the replay.
    private let isOpen = Atomic<Bool>(false)
    // Guarded by `lock`.
    private var waiting: [Event<Element>] = []

    init(_ downstream: @escaping (Event<Element>) -> Void) {
        self.downstream = downstream
    }

    func on(_ event: Event<Element>) {
        if isOpen.load(ordering: .acquiring) {
            downstream(event)
            return
        }
        lock.lock()
        if !isOpen.load(ordering: .relaxed) {
            waiting.append(event)
            lock.unlock()
            return
        }
        lock.unlock()
        downstream(event)
    }

    /// Called once the replay was delivered: delivers what waited meanwhile, then opens.
    func finishReplay() {
        while true {
            lock.lock()
            if waiting.isEmpty {
                isOpen.store(true, ordering: .releasing)
                lock.unlock()
                return
            }
            let batch = waiting
            waiting.removeAll()
            lock.unlock()
            for event in batch { downstream(event) }
        }
    }
}
