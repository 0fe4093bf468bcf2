/// When a test observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Hashable, CustomDebugStringConvertible {
    /// When the subscription started.
    public let subscribe: TestTime
    /// When it ended; `Int.max` while it is still active.
    public let unsubscribe: TestTime

    /// A subscription that has not ended.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Int.max
    }

    /// A subscription over `subscribe ..< unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : "\(unsubscribe)"
        return "(\(subscribe): \(end))"
    }
}
