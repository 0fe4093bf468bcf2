import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class ExportTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnLatency, scheduler: .serial, strategy: .drain, producers: 2, events: 1_000, payloadBytes: 64,
        rateHz: 500)

    /// Five timed trials of ns/event and events/s, and a counting trial with allocations.
    private func cases() -> [CaseResult] {
        let nanos: [Double] = [100, 104, 98, 102, 101]
        var trials = nanos.enumerated().map { index, value in
            TrialRecord(benchCase: benchCase, trial: index + 1, metrics: [.nsPerEvent: value, .eventsPerSec: 1e9 / value])
        }
        trials.append(TrialRecord(benchCase: benchCase, trial: 0, metrics: [.allocsPerEvent: 0.5]))
        return [CaseResult(benchCase: benchCase, trials: trials)]
    }

    private let provenance = Provenance(
        runID: "r\"1", timestamp: "t", host: "h", cpu: "CPU \\ model", cores: 2, os: "Debian", swift: "6.3.1", commit: "abc", build: "release",
        kernel: "6.1", governor: "none", cpuLimit: "none", loadAverage: "0.1")

    func testNamesLeaveTheSuiteOutAndShowOnlyTheAxesInUse() {
        XCTAssertEqual(benchCase.benchmarkName, "observeOn.latency/serial/drain/p2/n1000/payload64/rate500")
        var plain = benchCase
        plain.payloadBytes = 0
        plain.rateHz = 0
        plain.suite = "default"
        XCTAssertEqual(plain.benchmarkName, "observeOn.latency/serial/drain/p2/n1000")
    }

    func testBencherMetricFormatHoldsTheMedianAndItsInterval() throws {
        let text = try Export.render(cases(), provenance: provenance, format: .bmf, metrics: [.nsPerEvent, .allocsPerEvent])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: [String: Double]]])
        let measures = try XCTUnwrap(json["observeOn.latency/serial/drain/p2/n1000/payload64/rate500"])
        XCTAssertEqual(measures["ns_per_event"], ["value": 101, "lower_value": 98, "upper_value": 104])
        XCTAssertEqual(measures["allocs_per_event"], ["value": 0.5], "a single value has no interval")
        XCTAssertEqual(
            try Export.render(cases(), provenance: provenance, format: .bmf), try Export.render(cases(), provenance: provenance, format: .bmf))
    }

    func testGitHubActionBenchmarkTakesOneDirectionPerFile() throws {
        let text = try Export.render(cases(), provenance: provenance, format: .githubActionBenchmark)
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let names = items.compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains("observeOn.latency/serial/drain/p2/n1000/payload64/rate500 ns_per_event"), "\(names)")
        XCTAssertFalse(names.contains { $0.hasSuffix("events_per_sec") }, "by default only the smaller-is-better metrics")
        let nanos = try XCTUnwrap(items.first { ($0["name"] as? String)?.hasSuffix(" ns_per_event") == true })
        XCTAssertEqual(nanos["value"] as? Double, 101)
        XCTAssertEqual(nanos["unit"] as? String, "ns")
        XCTAssertEqual(nanos["range"] as? String, "± 3")
        XCTAssertTrue((nanos["extra"] as? String)?.contains("commit abc; run r\"1; schedbench export schema 1") == true, "\(nanos)")

        let faster = try Export.render(cases(), provenance: provenance, format: .githubActionBenchmark, metrics: [.eventsPerSec], metricsChosen: true)
        XCTAssertTrue(faster.contains("events_per_sec"), faster)
        XCTAssertThrowsError(
            try Export.render(
                cases(), provenance: provenance, format: .githubActionBenchmark, metrics: [.nsPerEvent, .eventsPerSec], metricsChosen: true)
        ) { error in
            XCTAssertTrue("\(error)".contains("one direction per file"), "\(error)")
        }
    }

    func testOpenMetricsEscapesLabelsAndEnds() throws {
        let text = try Export.render(cases(), provenance: provenance, format: .openmetrics, metrics: [.nsPerEvent])
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "# EOF")
        XCTAssertTrue(lines.contains("# TYPE schedbench_ns_per_event gauge"), text)
        XCTAssertTrue(
            lines.contains(
                #"schedbench_ns_per_event{workload="observeOn.latency",scheduler="serial",strategy="drain",producers="2",events="1000",payload_bytes="64",rate_hz="500",run_id="r\"1",commit="abc"} 101"#
            ), text)
        XCTAssertTrue(text.contains(#"schedbench_export_info{schema="1",run_id="r\"1",commit="abc",cpu="CPU \\ model",cores="2""#), text)
        XCTAssertEqual(OpenMetrics.labels([("a", "x\ny")]), #"{a="x\ny"}"#)
    }

    func testNothingToExportIsAnError() {
        XCTAssertThrowsError(try Export.render(cases(), provenance: nil, format: .bmf, metrics: [.latencyP99])) { error in
            XCTAssertTrue("\(error)".contains("nothing to export: no case recorded latency_p99_ns"), "\(error)")
        }
    }
}
