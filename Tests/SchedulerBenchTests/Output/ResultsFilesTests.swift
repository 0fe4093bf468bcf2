import XCTest

@testable import SchedulerBench

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
            cores: 2, os: "Debian", swift: "6.3.1", commit: "abc", build: "release")
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

    func testTidyRowsFollowTheSchema() throws {
        let directory = try temporaryDirectory()
        try ResultsFiles.write(sampleCases(), provenance: provenance(), to: directory)
        let rows = try CSVFile.read(directory.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
        XCTAssertEqual(rows.count, 3 * 4 + 2)
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
}
