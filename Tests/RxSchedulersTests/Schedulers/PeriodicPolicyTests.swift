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

    func testRxRecursiveOnASingleThreadedSchedulerDriftsLikeRxSwift() {
        XCTAssertEqual(virtualRuns(policy: .rxRecursive), [10, 20, 30, 55, 65, 75, 85])
    }

    /// RxSwift's `SchedulePeriodicRecursive` when ticks keep falling due while the action
    /// runs (as on a concurrent scheduler): the run at 30 stalls to 55, and the ticks due
    /// at 40 and 50 run meanwhile on another thread, where they are only counted. The
    /// state machine then dispatches the two owed runs at once, one per `.dispatch`
    /// reschedule, before the tick due at 60: in order, none lost, none merged.
    func testRxRecursiveReplaysTicksOwedDuringAStall() {
        for policy in [PeriodicPolicy.rxRecursive, .catchUp] {
            let scheduler = SteppedScheduler()
            var runs: [(clock: Int, state: Int)] = []
            var periodic: Disposable?
            periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(10), policy: policy) { state in
                runs.append((scheduler.clock, state))
                if runs.count == 3 { scheduler.stall(until: 55) }
                if runs.count == 7 { periodic?.dispose() }
                return state + 1
            }
            scheduler.run(until: 200)
            periodic = nil
            XCTAssertEqual(runs.map(\.clock), [10, 20, 30, 55, 55, 60, 70], "\(policy)")
            XCTAssertEqual(runs.map(\.state), Array(0..<7), "\(policy): the state threads through every run")
            XCTAssertEqual(scheduler.pendingCount, 0, "\(policy): disposing cancels the next tick")
        }
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
    /// `replayedAfterStalls` is the share of stalls after which owed ticks were replayed:
    /// the second delivery after the stalled one started under 1 ms after the first (owed
    /// ticks run back to back, where a tick on schedule comes a period after the last). Per
    /// stall rather than a count of close starts anywhere: on a loaded machine a delivery
    /// held up a few milliseconds lands next to the one after it on any scheduler, but only
    /// now and then, where a scheduler that owes ticks replays them after every stall.
    private func deliveredFraction(
        policy: PeriodicPolicy, on scheduler: SchedulerType? = nil
    ) -> (fraction: Double, inOrder: Bool, replayedAfterStalls: Double) {
        let scheduler = scheduler ?? SerialDispatchQueueScheduler(internalSerialQueueName: "periodic-\(policy)")
        let period = 0.004
        let duration = 0.6
        let values = Locked<[Int]>([])
        let starts = Locked<[Date]>([])
        let start = Date()
        let subscription = Observable<Int>.interval(.milliseconds(4), scheduler: scheduler, policy: policy)
            .subscribe(onNext: { value in
                values.withValue { $0.append(value) }
                starts.withValue { $0.append(Date()) }
                if value % 10 == 9 { usleep(12_000) }
            })
        Thread.sleep(forTimeInterval: duration)
        let received = values.current
        let elapsed = Date().timeIntervalSince(start)
        subscription.dispose()
        let expected = (elapsed / period).rounded(.down)
        let times = starts.current
        let stalls = received.indices.filter { received[$0] % 10 == 9 && $0 + 2 < min(received.count, times.count) }
        let replayed = stalls.filter { times[$0 + 2].timeIntervalSince(times[$0 + 1]) < 0.001 }.count
        return (Double(received.count) / expected, received == Array(0..<received.count), Double(replayed) / Double(max(stalls.count, 1)))
    }

    /// RxSwift's state machine on dispatch schedulers: on a concurrent queue the ticks are
    /// counted while the subscriber stalls and the owed ones are replayed back to back; on a
    /// serial queue the stall also holds up the counting, so nothing is owed and nothing is
    /// replayed: the schedule drifts instead. (How many ticks each delivers depends on the
    /// timers' lateness, which adds up under this algorithm; the harness measures it.)
    func testRxRecursiveReplaysOwedTicksOnAConcurrentSchedulerAndDriftsOnASerialOne() {
        let concurrent = deliveredFraction(policy: .rxRecursive, on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
        let serial = deliveredFraction(policy: .rxRecursive)
        XCTAssertTrue(concurrent.inOrder && serial.inOrder)
        XCTAssertGreaterThan(concurrent.replayedAfterStalls, 0.5, "ticks counted during a stall are replayed after it (after \(concurrent.replayedAfterStalls) of the stalls)")
        XCTAssertLessThan(serial.replayedAfterStalls, 0.25, "a serial queue owes nothing after a stall (replayed after \(serial.replayedAfterStalls) of them)")
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

/// A virtual-time scheduler stepped by hand, in whole seconds. Unlike `TestScheduler`, an
/// action may `stall(until:)`: what falls due meanwhile runs on another thread while the
/// action waits, as on a concurrent scheduler. One thread runs at a time, so the run is
/// deterministic.
private final class SteppedScheduler: SchedulerType {
    private struct Item {
        let due: Int
        let order: Int
        let run: () -> Disposable
        let cancel: BooleanDisposable
    }

    private(set) var clock = 0
    private var items: [Item] = []
    private var scheduled = 0

    var now: RxTime { Date(timeIntervalSince1970: TimeInterval(clock)) }
    var pendingCount: Int { items.filter { !$0.cancel.isDisposed }.count }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .seconds(0), action: action)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        guard case .seconds(let seconds) = dueTime else { preconditionFailure("whole seconds only, not \(dueTime)") }
        let cancel = BooleanDisposable()
        scheduled += 1
        items.append(Item(due: clock + seconds, order: scheduled, run: { action(state) }, cancel: cancel))
        return cancel
    }

    /// Runs every item due by `time`, earliest first (ties in scheduling order), moving the
    /// clock to each item's due time and finally to `time`.
    func run(until time: Int) {
        while let next = items.indices.filter({ items[$0].due <= time }).min(by: {
            (items[$0].due, items[$0].order) < (items[$1].due, items[$1].order)
        }) {
            let item = items.remove(at: next)
            clock = max(clock, item.due)
            if !item.cancel.isDisposed { _ = item.run() }
        }
        clock = max(clock, time)
    }

    /// From inside an action: runs what falls due by `time` on another thread, and returns
    /// once it has (the thread's exit orders its writes before the caller's reads).
    func stall(until time: Int) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            self.run(until: time)
            done.signal()
        }
        done.wait()
    }
}
