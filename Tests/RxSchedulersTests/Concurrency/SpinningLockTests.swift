import Dispatch
import Foundation
import XCTest

@testable import RxSchedulers

final class SpinningLockTests: XCTestCase {
    /// Threads increment a plain counter under the lock: no update may be lost, and
    /// ThreadSanitizer must see every access ordered by the lock.
    func testMutualExclusionUnderContention() {
        let lock = SpinningLock()
        let counter = UnsafeCounter()
        let threads = 8
        let increments = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                lock.performLocked { counter.value += 1 }
            }
        }
        XCTAssertEqual(counter.value, threads * increments)
    }

    /// A holder that stays inside for a long time sends waiters through the yield and
    /// sleep steps; they must all get the lock once it is released.
    func testWaitersGetTheLockAfterALongHold() {
        let lock = SpinningLock()
        lock.lock()
        assertWaitersGetTheLockOnlyAfterItIsGivenBack(lock: { lock.lock() }, unlock: { lock.unlock() })
    }
}
