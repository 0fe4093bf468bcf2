import Synchronization

/// Asks a run (or a gate) to stop at the next case boundary: the case in progress
/// finishes and is written, nothing after it starts. Thread-safe; cancelling twice is
/// the same as once. The CLI cancels on the first Ctrl-C.
public final class CancellationToken: Sendable {
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    /// Requests the stop. Returns whether it had already been requested.
    @discardableResult
    public func cancel() -> Bool {
        cancelled.exchange(true, ordering: .relaxed)
    }

    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
