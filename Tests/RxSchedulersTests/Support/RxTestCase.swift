import Foundation
import RxSchedulers
import XCTest

/// Base class: every test must leave `Resources.total` where it found it once its
/// objects are gone (asynchronous teardown gets up to two seconds to finish).
class RxTestCase: XCTestCase {
    private var startResources: Int32 = 0

    override func setUp() {
        super.setUp()
        startResources = Resources.total
    }

    override func tearDown() {
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != startResources && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
        XCTAssertEqual(Resources.total, startResources, "Rx resources leaked by \(name)")
        super.tearDown()
    }
}

/// Runs the main run loop (draining the main queue) until `condition` holds or
/// `timeout` passes; returns whether it held. Call on the main thread.
@discardableResult
func pumpMainLoop(timeout: TimeInterval = 5, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        RunLoop.main.run(until: Date().addingTimeInterval(0.001))
    }
    return true
}

/// A thread-safe value box for tests that record from several threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { withValue { $0 } }
}

/// Counts how many callers are inside a region at once and remembers the maximum.
final class OverlapDetector: @unchecked Sendable {
    private let state = Locked((inside: 0, maximum: 0))

    func enter() {
        state.withValue {
            $0.inside += 1
            $0.maximum = max($0.maximum, $0.inside)
        }
    }

    func leave() { state.withValue { $0.inside -= 1 } }

    var maximumConcurrency: Int { state.current.maximum }
}

struct TestError: Error, Equatable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}
