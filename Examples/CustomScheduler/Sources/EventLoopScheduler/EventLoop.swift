import Foundation

/// One thread running the closures it is given, in the order given: the event loop a
/// team might already have. It ends its thread once `shutdown()` was called and the
/// queue is empty.
public final class EventLoop: @unchecked Sendable {
    // Guarded by `condition`: the queue and the shutdown flag.
    private let condition = NSCondition()
    private var queue: [() -> Void] = []
    private var head = 0
    private var isShutDown = false

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `work` on the loop's thread after everything enqueued before it.
    public func execute(_ work: @escaping () -> Void) {
        condition.lock()
        queue.append(work)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once everything enqueued has run.
    public func shutdown() {
        condition.lock()
        isShutDown = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while head == queue.count && !isShutDown { condition.wait() }
            if head == queue.count {
                condition.unlock()
                return
            }
            // Take everything queued so far and run it outside the lock.
            let batch = queue[head...]
            queue.removeAll(keepingCapacity: true)
            head = 0
            condition.unlock()
            for work in batch { work() }
        }
    }
}
