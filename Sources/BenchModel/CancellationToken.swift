import Synchronization

/// Asks a run (or a gate, or a stress run) to stop early. A run stops at the case in
/// progress's next trial and keeps only the cases that finished; a gate stops after its
/// round, a stress run after its scenario. Thread-safe; cancelling twice is the same as
/// once. The CLI cancels on the first Ctrl-C.
package final class CancellationToken: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let parent: CancellationToken?

    /// A token of its own; with `parent`, also cancelled whenever `parent` is.
    package init(following parent: CancellationToken? = nil) { self.parent = parent }

    /// Requests the stop. Returns whether it had already been requested.
    @discardableResult
    package func cancel() -> Bool {
        cancelled.exchange(true, ordering: .relaxed)
    }

    package var isCancelled: Bool { cancelled.load(ordering: .relaxed) || parent?.isCancelled == true }
}

/// The work stopped because its `CancellationToken` was cancelled: what it had done is
/// not a result.
package struct Interrupted: Error {
    package init() {}
}
