import XCTest

@testable import BenchModel
@testable import BenchWorkflows

/// The merged provenance of a run's shards (`MergeWorkflow.merge`); the merge end to end is
/// in `MergeCommandTests`.
final class MergeWorkflowTests: XCTestCase {
    private func provenance(host: String, cpu: String = "Xeon", timestamp: String, load: String, commit: String = "abc") -> Provenance {
        Provenance(
            runID: "run-\(host)", timestamp: timestamp, host: host, cpu: cpu, cores: 4, os: "Linux", swift: "6.3", commit: commit,
            build: "release", kernel: "6.1", governor: "none", cpuLimit: "none", loadAverage: load)
    }

    func testOneTestbedMergesQuietlyIntoOneRun() throws {
        let (merged, warnings) = try MergeWorkflow.merge([
            ("shard 1/2", provenance(host: "a", timestamp: "2026-11-29T10:00:05Z", load: "0.50")),
            ("shard 2/2", provenance(host: "b", timestamp: "2026-11-29T10:00:01Z", load: "1.25")),
        ])
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(merged.runID, "run-a-merged")
        XCTAssertEqual(merged.timestamp, "2026-11-29T10:00:01Z", "the earliest start")
        XCTAssertEqual(merged.host, "a | b")
        XCTAssertEqual(merged.loadAverage, "1.25", "the busiest shard's")
        XCTAssertEqual(merged.testbedKey, provenance(host: "a", timestamp: "", load: "").testbedKey)
    }

    func testAnotherTestbedIsWarnedOfAndRecordedAsAMixture() throws {
        let (merged, warnings) = try MergeWorkflow.merge([
            ("shard 1/2", provenance(host: "a", cpu: "Xeon", timestamp: "t", load: "1")),
            ("shard 2/2", provenance(host: "b", cpu: "EPYC", timestamp: "t", load: "1")),
        ])
        XCTAssertEqual(warnings, ["shard 2/2 ran on another testbed than shard 1/2: cpu 'Xeon' vs 'EPYC'"])
        XCTAssertEqual(merged.cpu, "Xeon | EPYC")
    }

    func testAnotherBuildDoesNotMerge() {
        XCTAssertThrowsError(
            try MergeWorkflow.merge([
                ("shard 1/2", provenance(host: "a", timestamp: "t", load: "1")),
                ("shard 2/2", provenance(host: "b", timestamp: "t", load: "1", commit: "def")),
            ])
        ) { error in
            XCTAssertTrue("\(error)".contains("shard 2/2 was measured by another build than shard 1/2 (commit def"), "\(error)")
        }
    }
}
