import Foundation
import RxSchedulers
import XCTest

/// A `SchedulerType` over a concurrent queue without a native periodic timer, so
/// `schedulePeriodic` uses the catch-up emulation.
private struct EmulatedPeriodicScheduler: SchedulerType {
    let base = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
    var now: RxTime { base.now }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        base.schedule(state, action: action)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        base.scheduleRelative(state, dueTime: dueTime, action: action)
    }
}

final class PeriodicCatchUpTests: RxTestCase {
    func testTicksThatFallDueDuringAStallAreReplayedInOrder() {
        let scheduler = EmulatedPeriodicScheduler()
        let detector = OverlapDetector()
        let states = Locked<[Int]>([])
        let finished = expectation(description: "ticks")
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(2), period: .milliseconds(2)) { state in
            detector.enter()
            if state % 5 == 0 { usleep(9_000) }  // a stall worth several periods
            states.withValue { $0.append(state) }
            detector.leave()
            if state == 40 { finished.fulfill() }
            return state + 1
        }
        wait(for: [finished], timeout: 10)
        periodic.dispose()
        let delivered = states.current
        XCTAssertEqual(Array(delivered.prefix(41)), Array(0...40), "every tick delivered once, in order")
        XCTAssertEqual(detector.maximumConcurrency, 1, "the action never overlaps itself")
    }
}
