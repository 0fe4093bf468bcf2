import CDispatchMain
import Dispatch

extension DispatchQueue {
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main dispatch queue: about 6 ns when it does and
    /// runs in a main-queue block or on the main thread, about 25 ns otherwise.
    ///
    /// The answer of RxSwift's queue-specific key, which is not `Thread.isMainThread`:
    /// after `dispatchMain()` the main queue is drained by a worker thread, and on the
    /// main thread inside another queue's `sync` block the caller is not on the main
    /// queue. The fast test asks libdispatch whether its current queue is the main queue;
    /// only when it is not does the key (which also sees queues that target the main
    /// queue) decide.
    @inlinable
    static var isMain: Bool {
        rx_current_queue_is_main() != 0 || targetsMain
    }

    /// Whether the current queue is the main queue or targets it: the queue-specific
    /// key's answer, out of line so that callers inlining `isMain` stay short.
    @usableFromInline
    static var targetsMain: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }
}
