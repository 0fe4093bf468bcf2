import Dispatch
import Foundation
import XCTest

/// A counter changed only under the lock a test checks: ThreadSanitizer reports any access
/// the lock does not order.
final class UnsafeCounter: @unchecked Sendable {
    var value = 0
}

/// Three threads wait for a lock the caller holds (having called `lock`), through the yield
/// and sleep steps of a long wait; `whileHeld` runs once they all wait. None may get the
/// lock before `unlock`, and all get it after.
func assertWaitersGetTheLockOnlyAfterItIsGivenBack(
    lock: @escaping @Sendable () -> Void, unlock: @escaping @Sendable () -> Void, whileHeld: () -> Void = {},
    file: StaticString = #filePath, line: UInt = #line
) {
    let counter = UnsafeCounter()
    let group = DispatchGroup()
    let started = DispatchGroup()
    for _ in 0..<3 {
        group.enter()
        started.enter()
        Thread.detachNewThread {
            started.leave()
            lock()
            counter.value += 1
            unlock()
            group.leave()
        }
    }
    XCTAssertEqual(started.wait(timeout: .now() + 30), .success, file: file, line: line)
    whileHeld()
    XCTAssertEqual(counter.value, 0, "no waiter gets a lock that is held", file: file, line: line)
    unlock()
    XCTAssertEqual(group.wait(timeout: .now() + 10), .success, file: file, line: line)
    lock()
    XCTAssertEqual(counter.value, 3, file: file, line: line)
    unlock()
}
