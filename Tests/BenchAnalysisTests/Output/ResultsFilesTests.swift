import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ResultsFilesTests: XCTestCase {
    private func sampleCases() -> [CaseResult] {
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
            producers: 4, events: 1_000, payloadBytes: 0, rateHz: 0)
        let trials =
            (1...3).map { trial in
                TrialRecord(
                    benchCase: benchCase, trial: trial,
                    metrics: [
                        .eventsPerSec: 1_000_000 + Double(trial), .nsPerEvent: 1_000.25 - Double(trial),
                        .invariantViolations: 0, .resourcesLeaked: 0,
                    ])
            } + [TrialRecord(benchCase: benchCase, trial: 0, metrics: [.allocsPerEvent: 0.0125, .bytesPerEvent: 3.5])]
        return [CaseResult(benchCase: benchCase, trials: trials)]
    }

    private func provenance() -> Provenance {
        // Commas, quotes and a newline must survive the round trip.
        Provenance(
            runID: "r1", timestamp: "2026-11-22T00:00:00Z", host: "host, \"quoted\"", cpu: "CPU\nmodel",
            cores: 2, os: "Debian", swift: "6.3.1", commit: "abc", build: "release", kernel: "6.1.0", governor: "none", cpuLimit: "1.50",
            loadAverage: "0.25")
    }

    /// Files written before the testbed columns existed still read; their testbed is unrecorded.
    func testResultsWithoutTheTestbedColumnsStillRead() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let file = directory.appendingPathComponent(ResultsFiles.resultsName)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[0].split(separator: ",").map(String.init)
        let dropped = Set(["kernel", "governor", "cpu_limit", "load_avg"].compactMap { header.firstIndex(of: $0) })
        XCTAssertEqual(dropped.count, 4)
        // The sample's values hold no commas, quotes or newlines in these rows' testbed columns; the host does, so rebuild from parsed rows.
        let rows = try CSVFile.read(file, requiring: ResultsFiles.resultsHeader)
        let oldHeader = header.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        try CSVFile.write(header: oldHeader, rows: rows.map { row in oldHeader.map { row[$0]! } }, to: file)
        let (cases, read) = try ResultsFiles.read(directory.path)
        XCTAssertEqual(cases[0].trials, sampleCases()[0].trials)
        XCTAssertEqual(read?.kernel, Provenance.unrecorded)
        XCTAssertEqual(read?.loadAverage, Provenance.unrecorded)
        XCTAssertEqual(read?.host, provenance().host)
    }

    /// A results file from before dispatch was an axis of schedule.throughput on serial and
    /// concurrent (strategy `none`) reads those cases under today's name, `perAction`, so a
    /// run from then compares with a run from now; other `none` cases keep their name.
    func testOlderStrategyNamesReadAsTodays() throws {
        let directory = try temporaryDirectory()
        let cases = [SchedulerName.serial, .concurrent, .currentThread].map { scheduler in
            let benchCase = BenchCase(
                suite: "default", workload: .scheduleThroughput, scheduler: scheduler, strategy: .none, producers: 1, events: 1_000,
                payloadBytes: 0, rateHz: 0)
            return CaseResult(benchCase: benchCase, trials: [TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 100])])
        }
        try ResultsFiles.write(cases, provenance: provenance(), to: directory)
        let read = try ResultsFiles.read(directory.path).cases.map { "\($0.benchCase.scheduler.rawValue)/\($0.benchCase.strategy.rawValue)" }
        XCTAssertEqual(read, ["serial/perAction", "concurrent/perAction", "currentThread/none"])
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testResultsRoundTripThroughTheCSVLibrary() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let (cases, readProvenance) = try ResultsFiles.read(directory.path)
        XCTAssertEqual(readProvenance, provenance())
        XCTAssertEqual(cases.count, 1)
        XCTAssertEqual(cases[0].trials, sampleCases()[0].trials)
    }

    /// What was violated is kept beside the counts: `violations.csv` reads back into each
    /// case's samples (commas, quotes and newlines included); a run from before the file
    /// reads as holding none; a row naming an unknown phase is an error naming the row.
    func testViolationDescriptionsRoundTripAndOlderRunsReadWithout() throws {
        let directory = try temporaryDirectory()
        var cases = sampleCases()
        cases[0].violationSamples = [
            ViolationSample(phase: .warmup, trial: 1, description: "producer 0: events 3..<4 lost, \"really\"\nsecond line"),
            ViolationSample(round: 4, phase: .timed, trial: 2, description: "producer 1: event 7 delivered again"),
            ViolationSample(phase: .counting, trial: 0, description: "timed out"),
        ]
        try ResultsFiles.write(cases, provenance: provenance(), to: directory)
        XCTAssertEqual(try ResultsFiles.read(directory.path).cases[0].violationSamples, cases[0].violationSamples)
        let file = directory.appendingPathComponent(ResultsFiles.violationsName)
        let rows = try CSVFile.read(file, requiring: ResultsFiles.violationsHeader)
        XCTAssertEqual(rows.map { $0["phase"] }, ["warmup", "timed", "counting"])
        XCTAssertEqual(rows.map { $0["round"] }, ["0", "4", "0"])
        XCTAssertEqual(rows[1]["workload"], "observeOn.throughput")

        try CSVFile.write(
            header: ResultsFiles.violationsHeader, rows: [rows[0].merging(["phase": "cooldown"]) { $1 }].map { row in ResultsFiles.violationsHeader.map { row[$0]! } },
            to: file)
        XCTAssertThrowsError(try ResultsFiles.read(directory.path)) { error in
            XCTAssertTrue("\(error)".contains("row 2: phase 'cooldown'"), "\(error)")
        }
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(try ResultsFiles.read(directory.path).cases[0].violationSamples, [])

        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        XCTAssertEqual(try CSVFile.read(file, requiring: ResultsFiles.violationsHeader).count, 0, "a clean run writes only the header")
    }

    func testTidyRowsFollowTheSchema() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let rows = try CSVFile.read(directory.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
        XCTAssertEqual(rows.count, 3 * 4 + 2)
        // Defect: the files ended without a line break (`wc -l` one short, `cat a b` joined rows).
        for name in ["results.csv", "summary.csv", "violations.csv"] {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("\n") && !text.hasSuffix("\n\n"), "\(name) ends \(text.suffix(20).debugDescription)")
        }
        for row in rows {
            let metric = try XCTUnwrap(Metric(rawValue: row["metric"]!))
            XCTAssertEqual(row["unit"], metric.unit)
            XCTAssertNotNil(Double(row["value"]!))
        }
    }

    func testSummaryHasMediansIntervalsAndTheAllocationTrial() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let rows = try CSVFile.read(directory.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)
        XCTAssertEqual(rows.count, 1)
        let row = rows[0]
        XCTAssertEqual(row["trials"], "3")
        XCTAssertEqual(row["events_per_sec"], "1000002")
        XCTAssertEqual(row["events_per_sec_ci_low"], "1000001")
        XCTAssertEqual(row["events_per_sec_ci_high"], "1000003")
        XCTAssertEqual(row["ns_per_event"], "998.25")
        XCTAssertEqual(row["allocs_per_event"], "0.0125")
        XCTAssertEqual(row["latency_p99_ns"], "")
    }

    func testUnreadableAndMalformedInputNamesTheFileAndProblem() throws {
        let directory = try temporaryDirectory()
        XCTAssertThrowsError(try ResultsFiles.read(directory.appendingPathComponent("missing.csv").path)) { error in
            XCTAssertTrue("\(error)".contains("missing.csv"))
        }
        let bad = directory.appendingPathComponent("bad.csv")
        try Data("run_id,metric\nx,y\n".utf8).write(to: bad)
        XCTAssertThrowsError(try ResultsFiles.read(bad.path)) { error in
            XCTAssertTrue("\(error)".contains("missing columns"), "\(error)")
        }
    }

    /// A corrupted value must be an error naming the file and the row, never a number a
    /// comparison would judge: each corruption is applied to one copy of a good file.
    func testImpossibleValuesAndDuplicatesAreErrorsNamingTheRow() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let good = try String(contentsOf: directory.appendingPathComponent(ResultsFiles.resultsName), encoding: .utf8)
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The first data row after the header (the provenance has a quoted newline, so find it by its metric).
        guard let row = lines.firstIndex(where: { $0.contains(",ns_per_event,") }) else { return XCTFail("no ns_per_event row") }
        func corrupted(_ transform: (String) -> String) throws -> String {
            var copy = lines
            copy[row] = transform(copy[row])
            let url = directory.appendingPathComponent("corrupt-\(UUID().uuidString).csv")
            try copy.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let value = lines[row].split(separator: ",").dropLast().last.map(String.init)!
        let cases: [(String, (String) -> String, String)] = [
            ("nan", { $0.replacingOccurrences(of: ",\(value),", with: ",nan,") }, "is not a decimal number"),
            ("inf", { $0.replacingOccurrences(of: ",\(value),", with: ",inf,") }, "is not a decimal number"),
            ("hex", { $0.replacingOccurrences(of: ",\(value),", with: ",0x10,") }, "is not a decimal number"),
            ("negative", { $0.replacingOccurrences(of: ",\(value),", with: ",-3,") }, "is impossible"),
            ("huge", { $0.replacingOccurrences(of: ",\(value),", with: ",1e999,") }, "is impossible"),
            ("negative producers", { $0.replacingOccurrences(of: ",serial,drain,4,", with: ",serial,drain,-4,") }, "producers '-4'"),
        ]
        for (name, transform, expected) in cases {
            let path = try corrupted(transform)
            XCTAssertThrowsError(try ResultsFiles.read(path), name) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains(path) && "\(error)".contains("row "), "\(name): \(error)")
            }
        }
        var duplicated = lines
        // The provenance's CPU field holds a newline, so a record spans this line and the one before.
        duplicated.insert(contentsOf: [lines[row - 1], lines[row].replacingOccurrences(of: ",\(value),", with: ",1,")], at: row + 1)
        let duplicate = directory.appendingPathComponent("duplicate.csv")
        try duplicated.joined(separator: "\n").write(to: duplicate, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ResultsFiles.read(duplicate.path)) { error in
            XCTAssertTrue("\(error)".contains("is also given in row"), "\(error)")
        }
        XCTAssertNoThrow(try ResultsFiles.read(directory.path), "the uncorrupted file still reads")
    }

    /// A run says how many of its planned cases its results hold, after every case: all
    /// of them when it finished, fewer when it stopped early; a status that is not one is
    /// unreadable.
    func testARunWritesItsStatusAfterEveryCase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-status-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = RunFiles(directory: directory, provenance: provenance(), planned: 2)
        let first = sampleCases()[0]
        try files.write([first], latest: first)
        let status = try XCTUnwrap(try RunStatus.read(in: directory))
        XCTAssertEqual(status, RunStatus(planned: 2, finished: 1))
        XCTAssertFalse(status.isComplete)
        var larger = first.benchCase
        larger.events = 2_000
        let second = CaseResult(
            benchCase: larger, trials: first.trials.map { TrialRecord(benchCase: larger, trial: $0.trial, metrics: $0.metrics) })
        try files.write([first, second], latest: second)
        XCTAssertEqual(try RunStatus.read(in: directory), RunStatus(planned: 2, finished: 2))
        XCTAssertEqual(try ResultsFiles.read(directory.path).cases.count, 2)
        try Data("not json".utf8).write(to: directory.appendingPathComponent(RunStatus.fileName))
        XCTAssertThrowsError(try RunStatus.read(in: directory))
    }
}
