#if PostgreSQL
import Dispatch

/// Runs async work to completion from synchronous code (the history's commands are
/// synchronous; postgres-nio is async). The calling thread blocks on a semaphore while a
/// detached task runs `work` on the concurrency pool, so it must not be called from a task
/// on that pool.
enum Blocking {
    static func wait<T>(_ work: @escaping () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task.detached {
            do {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// Written by the task before `signal`, read after `wait`: the semaphore orders the two.
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
#endif
