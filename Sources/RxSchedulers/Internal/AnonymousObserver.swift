import Synchronization

/// An observer over a closure that honours the grammar: after a stop event it ignores
/// everything, so the closure sees at most one `error` or `completed`.
final class AnonymousObserver<Element>: ObserverType, @unchecked Sendable {
    typealias EventHandler = (Event<Element>) -> Void

    private let eventHandler: EventHandler
    private let stopped = Atomic<Bool>(false)

    init(_ eventHandler: @escaping EventHandler) {
        self.eventHandler = eventHandler
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !stopped.load(ordering: .relaxed) { eventHandler(event) }
        case .error, .completed:
            if !stopped.exchange(true, ordering: .acquiringAndReleasing) { eventHandler(event) }
        }
    }
}
