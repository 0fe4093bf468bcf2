import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// What every history must do, whichever database holds it: `SQLiteHistoryTests` and
/// `PostgresHistoryTests` run these against their backend.
enum HistoryBehaviour {
    typealias Fixtures = HistoryFixtures

    static func addsARunOnceAndListsIt(_ open: () throws -> History) throws {
        let history = try open()
        let cases = [Fixtures.result(Fixtures.benchCase(), nanos: [100, 101, 99]), Fixtures.result(Fixtures.benchCase(.concurrent), nanos: [50])]
        XCTAssertEqual(try history.add(cases, provenance: Fixtures.provenance("run-a", minute: 1)), .added(cases: 2, values: 8))
        XCTAssertEqual(try history.add(cases, provenance: Fixtures.provenance("run-a", minute: 1)), .alreadyStored)
        _ = try history.add([Fixtures.result(Fixtures.benchCase(), nanos: [90])], provenance: Fixtures.provenance("run-b", minute: 2))
        let runs = try history.runs()
        XCTAssertEqual(runs.map(\.runID), ["run-a", "run-b"])
        XCTAssertEqual(runs.map(\.cases), [2, 1])
        XCTAssertEqual(runs[0].commit, "c1")
        XCTAssertEqual(runs[0].suite, "quick")
        XCTAssertEqual(runs[0].testbed, Fixtures.provenance("x", minute: 0).testbedKey)
        XCTAssertEqual(try history.runs(limit: 1).map(\.runID), ["run-b"])
    }

    static func windowsHoldEarlierRunsOfTheSameTestbedAndCase(_ open: () throws -> History) throws {
        let history = try open()
        let serial = Fixtures.benchCase()
        for minute in 1...6 {
            _ = try history.add(
                [Fixtures.result(serial, nanos: [Double(100 + minute), Double(200 + minute)])],
                provenance: Fixtures.provenance("run-\(minute)", minute: minute))
        }
        // Another testbed, and another case: neither belongs in serial's window.
        _ = try history.add([Fixtures.result(serial, nanos: [1])], provenance: Fixtures.provenance("other-cpu", minute: 3, cpu: "Other CPU"))
        _ = try history.add([Fixtures.result(Fixtures.benchCase(.concurrent), nanos: [1])], provenance: Fixtures.provenance("other-case", minute: 4))

        // NEW started at minute 5 and is itself stored: the window is the 3 latest runs before it.
        let new = Fixtures.provenance("run-5", minute: 5)
        let window = try history.window(for: new, cases: [serial, Fixtures.benchCase(.currentThread)], size: 3)
        XCTAssertEqual(Array(window.keys), [serial], "a case no stored run measured has no window")
        let runs = try XCTUnwrap(window[serial])
        XCTAssertEqual(runs.map { $0.values(.nsPerEvent) }, [[102, 202], [103, 203], [104, 204]], "oldest first, trials in order")
        XCTAssertEqual(runs[0].benchCase, serial)
        // A case of another suite is the same measurement.
        let otherSuite = Fixtures.benchCase(suite: "default")
        XCTAssertEqual(try history.window(for: new, cases: [otherSuite], size: 10)[otherSuite]?.count, 4)
        // A run whose testbed is not recorded matches nothing.
        var unrecorded = new
        unrecorded.kernel = Provenance.unrecorded
        XCTAssertTrue(try history.window(for: unrecorded, cases: [serial], size: 10).isEmpty)
    }

    static func trendsAreMediansPerCaseAndTestbed(_ open: () throws -> History) throws {
        let history = try open()
        _ = try history.add(
            [Fixtures.result(Fixtures.benchCase(), nanos: [10, 30, 20]), Fixtures.result(Fixtures.benchCase(.concurrent), nanos: [5])],
            provenance: Fixtures.provenance("run-1", minute: 1))
        _ = try history.add([Fixtures.result(Fixtures.benchCase(), nanos: [40, 42])], provenance: Fixtures.provenance("run-2", minute: 2))
        _ = try history.add(
            [Fixtures.result(Fixtures.benchCase(), nanos: [7])], provenance: Fixtures.provenance("run-3", minute: 3, cpu: "Other CPU"))
        let series = try history.trend(workload: .observeOnThroughput, metric: .nsPerEvent, scheduler: .serial)
        XCTAssertEqual(series.count, 2, "one series per testbed")
        XCTAssertEqual(series[0].points.map(\.value), [20, 41])
        XCTAssertEqual(series[0].points.map(\.runID), ["run-1", "run-2"])
        XCTAssertEqual(series[0].points.map(\.trials), [3, 2])
        XCTAssertEqual(series[0].benchCase.suite, "")
        XCTAssertEqual(series[1].points.map(\.value), [7])
        XCTAssertEqual(try history.trend(workload: .observeOnThroughput, metric: .nsPerEvent).count, 3)
        XCTAssertTrue(try history.trend(workload: .mainInline, metric: .nsPerEvent).isEmpty)
    }

    /// A run that fails half-way in is not stored at all, and what was stored stays.
    static func aFailedAddStoresNothing(_ open: () throws -> History) throws {
        let history = try open()
        _ = try history.add([Fixtures.result(Fixtures.benchCase(), nanos: [1, 2])], provenance: Fixtures.provenance("kept", minute: 1))
        // The same trial twice: the second insert violates the trials' primary key, after
        // the run's row and the first case were written.
        let benchCase = Fixtures.benchCase(.concurrent)
        let duplicate = CaseResult(
            benchCase: benchCase,
            trials: [
                TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 1]),
                TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 2]),
            ])
        XCTAssertThrowsError(
            try history.add([Fixtures.result(Fixtures.benchCase(), nanos: [5]), duplicate], provenance: Fixtures.provenance("broken", minute: 2))
        ) { error in
            guard case BenchError.history = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try history.runs().map(\.runID), ["kept"])
        XCTAssertEqual(try history.trend(workload: .observeOnThroughput, metric: .nsPerEvent).flatMap(\.points).map(\.runID), ["kept"])
    }
}
