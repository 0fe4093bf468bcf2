import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

final class PeriodicPolicyTests: RxTestCase {
    /// Runs a periodic action every 10 ticks from 10; the tick at 30 stalls for 25 ticks
    /// (by advancing the virtual clock); returns the clock at every run.
    private func virtualRuns(policy: PeriodicPolicy) -> [Int] {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var runs: [Int] = []
        var periodic: Disposable?
        periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(10), policy: policy) { state in
            runs.append(scheduler.clock)
            if scheduler.clock == 30 { scheduler.sleep(25) }
            if runs.count == 7 { periodic?.dispose() }
            return state + 1
        }
        scheduler.start()
        periodic = nil
        return runs
    }

    func testFixedRateRunsOverdueTicksAtOnceThenKeepsTheGrid() {
        XCTAssertEqual(virtualRuns(policy: .fixedRate), [10, 20, 30, 55, 55, 60, 70])
    }

    func testCoalesceSkipsMissedTicksToTheNextGridPoint() {
        XCTAssertEqual(virtualRuns(policy: .coalesce), [10, 20, 30, 60, 70, 80, 90])
    }

    func testCatchUpInVirtualTimeDriftsLikeRxSwift() {
        // On a single-threaded scheduler the next tick is scheduled a period after the
        // previous one started; a stall delays it without losing it.
        XCTAssertEqual(virtualRuns(policy: .catchUp), [10, 20, 30, 55, 65, 75, 85])
    }

    func testFixedRateRebasesAfterALongStall() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var runs: [Int] = []
        var periodic: Disposable?
        periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(10), policy: .fixedRate) { state in
            runs.append(scheduler.clock)
            if state == 1 { scheduler.sleep(500) }  // far beyond the tolerance (10 periods)
            if runs.count == 5 { periodic?.dispose() }
            return state + 1
        }
        scheduler.start()
        periodic = nil
        XCTAssertEqual(runs, [10, 20, 520, 530, 540], "no burst of 50 replayed ticks after the jump")
    }

    func testIntervalAcceptsAPolicy() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start(disposed: 245) { Observable<Int>.interval(.seconds(10), scheduler: scheduler, policy: .fixedRate) }
        XCTAssertEqual(observer.events, [.next(210, 0), .next(220, 1), .next(230, 2), .next(240, 3)])
    }

    /// Real time on a serial dispatch queue: a 4 ms period for ~0.6 s, every 10th tick
    /// stalls 12 ms (three periods). Catch-up and fixed-rate deliver (nearly) every tick
    /// that fell due, in order; the coalescing timer drops the missed ones.
    private func deliveredFraction(policy: PeriodicPolicy) -> (fraction: Double, inOrder: Bool) {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "periodic-\(policy)")
        let period = 0.004
        let duration = 0.6
        let values = Locked<[Int]>([])
        let start = Date()
        let subscription = Observable<Int>.interval(.milliseconds(4), scheduler: scheduler, policy: policy)
            .subscribe(onNext: { value in
                values.withValue { $0.append(value) }
                if value % 10 == 9 { usleep(12_000) }
            })
        Thread.sleep(forTimeInterval: duration)
        let received = values.current
        let elapsed = Date().timeIntervalSince(start)
        subscription.dispose()
        let expected = (elapsed / period).rounded(.down)
        return (Double(received.count) / expected, received == Array(0..<received.count))
    }

    func testCatchUpAndFixedRateKeepTicksThatCoalesceDrops() {
        let catchUp = deliveredFraction(policy: .catchUp)
        let fixedRate = deliveredFraction(policy: .fixedRate)
        let coalesce = deliveredFraction(policy: .coalesce)
        XCTAssertTrue(catchUp.inOrder && fixedRate.inOrder && coalesce.inOrder)
        // Generous bounds: this runs on shared CI machines. The harness measures it precisely.
        XCTAssertGreaterThan(catchUp.fraction, 0.9, "catch-up delivered \(catchUp.fraction)")
        XCTAssertGreaterThan(fixedRate.fraction, 0.9, "fixed-rate delivered \(fixedRate.fraction)")
        XCTAssertLessThan(coalesce.fraction, min(catchUp.fraction, fixedRate.fraction), "coalesce should lose the stalled ticks")
    }
}
