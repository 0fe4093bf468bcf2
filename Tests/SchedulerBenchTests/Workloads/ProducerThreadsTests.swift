import Foundation
import Synchronization
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ProducerThreadsTests: XCTestCase {
    func testEveryProducerRunsOnceTheGateOpens() throws {
        let ran = Atomic<Int>(0)
        let producers = try ProducerThreads(count: 4, name: "schedbench.test") { index in
            ran.wrappingAdd(1 << (8 * index), ordering: .relaxed)
        }
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(ran.load(ordering: .relaxed), 0, "nothing runs before the gate opens")
        _ = producers.start()
        XCTAssertTrue(producers.join(timeout: 10))
        XCTAssertEqual(ran.load(ordering: .relaxed), 0x0101_0101, "each index once")
    }

    /// A process that cannot create the threads gets an error saying how many started,
    /// not a crash (stacks of 32 TiB cannot be mapped on any machine this runs on).
    func testThreadsThatCannotStartAreAnErrorSayingHowMany() throws {
        if runsUnderThreadSanitizer {
            throw XCTSkip("ThreadSanitizer's own thread creation aborts instead of failing")
        }
        XCTAssertThrowsError(try ProducerThreads(count: 3, name: "schedbench.huge", stackSize: 1 << 45) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("started 0 of 3 schedbench.huge threads"), "\(error)")
        }
    }
}
