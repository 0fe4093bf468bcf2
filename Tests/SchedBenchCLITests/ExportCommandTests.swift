import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ExportCommandTests: SchedBenchTestCase {
    private func writeRun() throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain, producers: 1, events: 1_000, payloadBytes: 0,
            rateHz: 0)
        let trials = [100.0, 102, 98].enumerated().map { index, value in
            TrialRecord(benchCase: benchCase, trial: index + 1, metrics: [.nsPerEvent: value, .eventsPerSec: 1e9 / value])
        }
        try ResultsFiles.write([CaseResult(benchCase: benchCase, trials: trials)], provenance: .current(), to: directory)
        return directory
    }

    func testEachFormatExportsARun() throws {
        let run = try writeRun()
        let bmf = try schedbench(["export", run.path, "--format", "bmf"])
        XCTAssertEqual(bmf.status, 0, bmf.stderr)
        XCTAssertTrue(bmf.stdout.contains(#""observeOn.throughput/serial/drain/p1/n1000" : {"#), bmf.stdout)
        let action = try schedbench(["export", run.path, "--format", "github-action-benchmark"])
        XCTAssertEqual(action.status, 0, action.stderr)
        XCTAssertTrue(action.stdout.contains(#""name" : "observeOn.throughput/serial/drain/p1/n1000 ns_per_event""#), action.stdout)
        let file = try temporaryDirectory().appendingPathExtension("prom")
        let metrics = try schedbench(["export", run.path, "--format", "openmetrics", "--out", file.path])
        XCTAssertEqual(metrics.status, 0, metrics.stderr)
        XCTAssertTrue(metrics.stdout.isEmpty)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasSuffix("# EOF\n"))
    }

    func testBadInputIsNamed() throws {
        let run = try writeRun()
        let format = try schedbench(["export", run.path, "--format", "json"])
        XCTAssertEqual(format.status, 64)
        XCTAssertTrue(format.stderr.contains("unknown --format 'json'; valid: bmf, github-action-benchmark, openmetrics"), format.stderr)
        let missing = try schedbench(["export", "/nonexistent", "--format", "bmf"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent"), missing.stderr)
        let mixed = try schedbench(["export", run.path, "--format", "github-action-benchmark", "--metric", "ns_per_event,events_per_sec"])
        XCTAssertEqual(mixed.status, 1)
        XCTAssertTrue(mixed.stderr.contains("one direction per file"), mixed.stderr)
        let empty = try schedbench(["export", run.path, "--format", "bmf", "--metric", ""])
        XCTAssertEqual(empty.status, 64, "an empty --metric is not the default list")
        XCTAssertTrue(empty.stderr.contains("--metric '' names no metric"), empty.stderr)
        let directory = try schedbench(["export", run.path, "--format", "bmf", "--out", run.path])
        XCTAssertEqual(directory.status, 1)
        XCTAssertTrue(directory.stderr.contains("\(run.path) is a directory, not a file"), directory.stderr)
        // Defect: a file in a directory that is not there was reported as "no such file".
        let absent = run.appendingPathComponent("nodir").appendingPathComponent("x.json")
        let intoNothing = try schedbench(["export", run.path, "--format", "bmf", "--out", absent.path])
        XCTAssertEqual(intoNothing.status, 1)
        XCTAssertTrue(intoNothing.stderr.contains("no such directory: \(run.appendingPathComponent("nodir").path)"), intoNothing.stderr)
        let nothing = try schedbench(["export", run.path, "--format", "bmf", "--metric", "latency_p99_ns"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("nothing to export"), nothing.stderr)
    }
}
