/// The disposable `CurrentThreadScheduler` returns for an action it queued: its slot in
/// the thread's `TrampolineQueue`. Two words, so it travels in a `Disposable`
/// existential without an allocation; it keeps its chunk alive, and the queue does not
/// reuse a chunk while a handle refers to it, so it always names exactly its action.
///
/// Disposing before the action runs skips it; disposing after it ran disposes what the
/// action returned (RxSwift's `ScheduledItem`). Both may be called from any thread.
@usableFromInline
struct QueuedActionDisposable: Cancelable, @unchecked Sendable {
    @usableFromInline let chunk: ActionChunk
    @usableFromInline let index: Int

    @inlinable init(chunk: ActionChunk, index: Int) {
        self.chunk = chunk
        self.index = index
    }

    @usableFromInline var isDisposed: Bool { chunk.isDisposed(at: index) }

    @usableFromInline func dispose() { chunk.dispose(at: index) }
}
