import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// `schedbench report` and `run --report`, as a user runs them, and the report in a real
/// browser (headless Chromium, where it is installed).
final class ReportCommandTests: SchedBenchTestCase {
    /// A real run: the quick suite's latency case and two throughput cases, one trial.
    private func measuredRun(report: Bool = false) throws -> (directory: URL, result: Run) {
        let out = try temporaryDirectory()
        let result = try schedbench(
            [
                "run", "--suite", "quick", "--workload", "observeOn.latency,observeOn.throughput", "--scheduler", "serial", "--strategy", "drain",
                "--producers", "1,2", "--trials", "1", "--warmup", "0", "--events", "2000", "--out", out.path, "--no-table",
            ] + (report ? ["--report"] : []))
        XCTAssertEqual(result.status, 0, result.stderr)
        return (out, result)
    }

    func testRunWritesItsReportAndTheHistogramsMatchTheResults() throws {
        let (out, result) = try measuredRun(report: true)
        let report = out.appendingPathComponent("report/index.html")
        XCTAssertTrue(result.stderr.contains("report: \(report.path)"), result.stderr)
        let html = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(html.contains("observeOn.throughput on serial"), "a scaling chart over producers 1 and 2")
        XCTAssertTrue(html.contains(">percentile</text>"), "the latency distribution from latency/*.hgrm")

        // The .hgrm file reads back to the percentiles in results.csv (one trial: the same histogram).
        let (cases, _) = try ResultsFiles.read(out.path)
        let latency = try XCTUnwrap(cases.first { $0.benchCase.workload == .observeOnLatency })
        let rows = try LatencyFiles.read(out.appendingPathComponent("latency").appendingPathComponent(LatencyFiles.fileName(latency.benchCase)))
        for (metric, percentile) in [(Metric.latencyP50, 50.0), (.latencyP99, 99)] {
            let recorded = try XCTUnwrap(latency.values(metric).first) / 1_000
            // The rows are steps: the recorded percentile lies between the rows around it.
            let after = try XCTUnwrap(rows.firstIndex { $0.percentile >= percentile - 1e-9 })
            let (low, high) = (rows[max(0, after - 1)].microseconds, rows[after].microseconds)
            XCTAssertTrue(recorded >= low * 0.999 && recorded <= high * 1.001, "\(metric.rawValue): \(recorded) µs outside [\(low), \(high)]")
        }
    }

    func testReportWithABaseAndItsErrors() throws {
        let (run, _) = try measuredRun()
        let (base, _) = try measuredRun()
        let out = try temporaryDirectory()
        let report = try schedbench(["report", run.path, base.path, "--out", out.path, "--title", "PR 42", "--p99-limit", "500us"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertEqual(report.stdout, out.appendingPathComponent("index.html").path + "\n")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<title>PR 42</title>") && html.contains("<section id=\"comparison\">"))

        let defaultPlace = try schedbench(["report", run.appendingPathComponent("results.csv").path])
        XCTAssertEqual(defaultPlace.status, 0, defaultPlace.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: run.appendingPathComponent("report/index.html").path), "RUN/report by default")

        let missing = try schedbench(["report", "/nonexistent"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent"), missing.stderr)
        let limit = try schedbench(["report", run.path, "--p99-limit", "fast"])
        XCTAssertEqual(limit.status, 64)
        XCTAssertTrue(limit.stderr.contains("--p99-limit 'fast' is not a duration"), limit.stderr)
        let blocked = try schedbench(["report", run.path, "--out", run.appendingPathComponent("results.csv").path])
        XCTAssertEqual(blocked.status, 1, "a file where the directory should be")
        XCTAssertTrue(blocked.stderr.contains("results.csv"), blocked.stderr)
    }

    /// The report in a real browser: scripts/report-screenshot.sh renders it in headless
    /// Chromium and fails on a blank screenshot.
    func testTheReportRendersInChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw XCTSkip("no /usr/bin/chromium (Debian's chromium; scripts/report-screenshot.sh installs it as root)")
        }
        let (run, _) = try measuredRun(report: true)
        let shot = try temporaryDirectory().appendingPathExtension("png")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/report-screenshot.sh")
        let result = try schedbench([run.appendingPathComponent("report/index.html").path, shot.path, "1000", "1400"], executable: script)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("not blank"), result.stdout)
        XCTAssertGreaterThan(try Data(contentsOf: shot).count, 20_000)
    }
}
