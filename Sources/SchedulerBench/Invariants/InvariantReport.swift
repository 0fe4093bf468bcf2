import Foundation

/// Collects invariant violations from any thread: the count, and the first few
/// descriptions for the error message. Violations are rare, so a lock is fine.
public final class InvariantReport: @unchecked Sendable {
    public static let keptDescriptions = 5
    private let lock = NSLock()
    private var _count = 0
    private var _descriptions: [String] = []

    public init() {}

    public func record(_ description: @autoclosure () -> String) {
        lock.lock()
        defer { lock.unlock() }
        _count += 1
        if _descriptions.count < Self.keptDescriptions { _descriptions.append(description()) }
    }

    public var count: Int { lock.lock(); defer { lock.unlock() }; return _count }
    public var descriptions: [String] { lock.lock(); defer { lock.unlock() }; return _descriptions }
}
