import BenchModel
import Foundation

/// Collects invariant violations from any thread: the count, and the first few
/// descriptions for the error message. Violations are rare, so a lock is fine.
final class InvariantReport: @unchecked Sendable {
    static let keptDescriptions = 5
    private let lock = NSLock()
    private var _count = 0
    private var _descriptions: [String] = []

    init() {}

    func record(_ description: @autoclosure () -> String) {
        lock.lock()
        defer { lock.unlock() }
        _count += 1
        if _descriptions.count < Self.keptDescriptions { _descriptions.append(description()) }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return _count
    }
    var descriptions: [String] {
        lock.lock()
        defer { lock.unlock() }
        return _descriptions
    }
}
