/// Before a drainer gives up its token (after which the next event pays a dispatch and a
/// thread wake-up, 1–5 µs here), it polls its queue briefly for producers that are
/// mid-stream. The budget is a few hundred nanoseconds of polling, paid once per burst.
@usableFromInline
enum SpinWait {
    /// Polls of the queue before giving up.
    @inlinable static var polls: Int { 256 }

    /// `next()`, retried up to `polls` times while it returns `nil`.
    @inlinable
    static func poll<Element>(_ next: () -> Element?) -> Element? {
        for _ in 0..<polls {
            if let element = next() { return element }
        }
        return nil
    }
}
