import Dispatch
import Foundation
import NIOCore
import NIOPosix
import SchedulerBench
import Synchronization

/// Hand-off `nioExecute`: each event is one `EventLoop.execute` onto a loop of its own
/// (a one-thread `MultiThreadedEventLoopGroup` per trial), the way NIO code moves work onto
/// a channel's loop. Cancellation is a flag each task checks.
final class NIOHandOff: HandOff, Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let loop: any EventLoop
    private let deliver: @Sendable (Item) -> Void
    private let cancelled = Atomic<Bool>(false)

    init(deliver: @escaping @Sendable (Item) -> Void) {
        self.deliver = deliver
        loop = group.next()
    }

    deinit { group.shutdownGracefully(queue: .global()) { _ in } }

    func produce(count: Int, item: @escaping @Sendable (Int) -> Item) {
        for index in 0..<count {
            let next = item(index)
            loop.execute { [self] in
                // Relaxed: the cancel that matters is made inside an earlier task on this loop.
                if !cancelled.load(ordering: .relaxed) { deliver(next) }
            }
        }
    }

    func finish(timeout: TimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        loop.execute { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
