import BenchChild
import BenchModel
import XCTest

@testable import SchedulerBench

final class CaseIsolationTests: XCTestCase {
    /// The counts of a case's two processes: 0 apart when equal, else their range over their mean.
    func testRepeatDifferenceIsTheRangeOverTheMean() {
        XCTAssertEqual(CaseIsolation.repeatDifference([120, 120]), 0)
        XCTAssertEqual(CaseIsolation.repeatDifference([3_300, 3_700]), 400.0 / 3_500, accuracy: 1e-12)
        XCTAssertEqual(CaseIsolation.repeatDifference([3_700, 3_300]), 400.0 / 3_500, accuracy: 1e-12, "whichever came first")
        XCTAssertEqual(CaseIsolation.repeatDifference([0, 0]), 0)
        XCTAssertEqual(CaseIsolation.repeatDifference([]), 0)
    }

    /// Every case is counted by two children, each counting a run of consecutive cases:
    /// one run when fewer than four children may run at once (the two children one after
    /// the other, or side by side), one for every two slots otherwise, never more runs
    /// than cases; the runs cover every case once.
    func testEveryCaseIsCountedByTwoChildren() {
        for (cases, slots, runs) in [(50, 1, 1), (50, 2, 1), (50, 3, 1), (50, 4, 2), (50, 8, 4), (1, 8, 1), (3, 8, 3)] {
            let plan = CaseIsolation.countingPlan(cases: cases, slots: slots)
            XCTAssertEqual(plan.chunks.count, runs, "\(cases) cases, \(slots) slots")
            XCTAssertEqual(plan.chunks.flatMap { Array($0) }, Array(0..<cases), "each case in one run, in order")
            for chunk in plan.chunks.indices {
                XCTAssertEqual(
                    plan.children.filter { $0 == chunk }.count, CaseIsolation.processesPerCase,
                    "run \(chunk) of \(cases) cases, \(slots) slots: counted by two children")
            }
            XCTAssertEqual(plan.children.count, runs * CaseIsolation.processesPerCase, "no child counts nothing")
        }
    }

    /// Each counting slot keeps its children on one processor, the slots taking the
    /// options' processors in turn, else this process's.
    func testEachCountingSlotHasAProcessor() {
        XCTAssertEqual((0..<5).map { CaseIsolation.processor(slot: $0, of: [3, 8]) }, [3, 8, 3, 8, 3])
        XCTAssertNil(CaseIsolation.processor(slot: 0, of: []))
        var options = RunOptions()
        XCTAssertEqual(CaseIsolation.countingProcessors(options), Processors.allowed())
        options.countingProcessors = [1]
        XCTAssertEqual(CaseIsolation.countingProcessors(options), [1])
    }

    /// Counting children run at the lowest real-time priority when the options ask and this
    /// process may, else under the normal scheduler.
    func testCountingChildrenRunRealTimeWhereAskedAndPermitted() {
        var options = RunOptions()
        XCTAssertEqual(CaseIsolation.countingPriority(options, refusal: nil), 1)
        XCTAssertNil(CaseIsolation.countingPriority(options, refusal: "not permitted"))
        options.countUnderRealTime = false
        XCTAssertNil(CaseIsolation.countingPriority(options, refusal: nil))
    }

    /// Each process's count is its counted trial's instructions less the smaller trial's,
    /// over their operations' difference; the case's count is the mean of the processes'
    /// counts, and its repeat difference their range over that mean. The numbers are
    /// observe(on:) `reference` on `serial`'s two levels.
    func testACasesCountIsTheMeanOfItsProcessesCounts() throws {
        let benchCase = BenchCase(
            suite: "test", workload: .observeOnThroughput, scheduler: .serial, strategy: .reference, producers: 1, events: 10_000,
            payloadBytes: 0, rateHz: 0)
        func trial(events: Int, instructions: UInt64) -> (ChildReply.CaseOutcome, UInt64?) {
            var sized = benchCase
            sized.events = events
            let result = CaseResult(benchCase: sized, trials: [])
            return (ChildReply.CaseOutcome(benchCase: sized, result: result, operations: events), instructions)
        }
        let processes = [
            [trial(events: 1_000, instructions: 9_000_000), trial(events: 5_000, instructions: 9_000_000 + 4_000 * 7_100)],
            [trial(events: 1_000, instructions: 10_000_000), trial(events: 5_000, instructions: 10_000_000 + 4_000 * 8_450)],
        ]
        let result = try CaseIsolation.instructionsPerEvent(benchCase, processes, "schedbench")
        XCTAssertEqual(result.values(.instructionsPerEvent), [(7_100 + 8_450) / 2])
        XCTAssertEqual(try XCTUnwrap(result.values(.instructionsRepeatDifference).first), 1_350 / 7_775, accuracy: 1e-12)
        let oneLevel = try CaseIsolation.instructionsPerEvent(benchCase, [processes[0], processes[0]], "schedbench")
        XCTAssertEqual(oneLevel.values(.instructionsRepeatDifference), [0])
        let fewer = [processes[0], [processes[1][1], processes[1][0]]]
        XCTAssertThrowsError(try CaseIsolation.instructionsPerEvent(benchCase, fewer, "schedbench"), "a larger trial that counted less")
    }
}
