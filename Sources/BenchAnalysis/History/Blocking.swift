#if PostgreSQL
import BenchChild
import BenchModel
import Dispatch
import NIOCore
import Synchronization

/// Runs async work to completion from synchronous code (the history's commands are
/// synchronous; postgres-nio is async), never for longer than a deadline. The calling
/// thread blocks on a semaphore while a detached task runs `work` on the concurrency pool,
/// so it must not be called from a task on that pool.
///
/// Every wait ends: when the work finishes, when `closed` completes (the connection the work
/// uses has gone: a server stopped with `pg_ctl -m immediate` can leave a query that never
/// completes), or after `seconds`. In the last two cases the task is cancelled and left to
/// end on its own; its result, if it ever comes, is dropped.
enum Blocking {
    /// How a wait ended without the work's result.
    enum Abandoned: Error {
        /// Nothing came back within this many seconds.
        case timedOut(seconds: Double)
        /// The connection closed while the work waited for it.
        case connectionClosed
    }

    static func wait<T: Sendable>(seconds: Double, closed: EventLoopFuture<Void>? = nil, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        let task = Task.detached {
            do {
                box.finish(.success(try await work()), signalling: done)
            } catch {
                box.finish(.failure(error), signalling: done)
            }
        }
        closed?.whenComplete { _ in box.finish(.failure(Abandoned.connectionClosed), signalling: done) }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            box.finish(.failure(Abandoned.timedOut(seconds: seconds)), signalling: done)
        }
        let result = box.result!
        if case .failure(let error) = result, error is Abandoned { task.cancel() }
        return try result.get()
    }

    /// The first outcome wins: the work's, the connection's close, or the deadline. Written
    /// and read under the lock; the semaphore is signalled by the winner only.
    private final class ResultBox<T: Sendable>: Sendable {
        private let outcome = Mutex<Result<T, any Error>?>(nil)

        func finish(_ first: Result<T, any Error>, signalling done: DispatchSemaphore) {
            let won = outcome.withLock { result -> Bool in
                guard result == nil else { return false }
                result = first
                return true
            }
            if won { done.signal() }
        }

        var result: Result<T, any Error>? { outcome.withLock { $0 } }
    }
}
#endif
