import Dispatch

extension DispatchQueue {
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main dispatch queue (~60 ns).
    ///
    /// A queue-specific key, not `Thread.isMainThread`: after `dispatchMain()` the main
    /// queue is drained by a worker thread, and code on the main thread outside the
    /// main queue's callouts is still "on the main queue" for libdispatch.
    static var isMain: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }
}
