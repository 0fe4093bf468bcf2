import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchMeasure
@testable import BenchModel
@testable import BenchStress
@testable import BenchWorkflows

final class ProvenanceTests: XCTestCase {
    private func directory(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-provenance-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.path
    }

    func testThisMachinesTestbedIsRecorded() {
        let provenance = Provenance.current()
        XCTAssertFalse(provenance.kernel.isEmpty)
        XCTAssertTrue(provenance.os.hasSuffix("(kernel \(provenance.kernel))"), provenance.os)
        for value in [provenance.kernel, provenance.governor, provenance.cpuLimit, provenance.loadAverage] {
            XCTAssertNotEqual(value, Provenance.unrecorded)
        }
        XCTAssertNotNil(Double(provenance.loadAverage), provenance.loadAverage)
        XCTAssertEqual(Provenance.columns.count, provenance.columnValues.count)
    }

    func testTheCgroupCPULimitReadsVersionTwoThenVersionOne() throws {
        XCTAssertEqual(Provenance.cgroupCPULimit(root: try directory(["cpu.max": "150000 100000\n"])), "1.50")
        XCTAssertEqual(Provenance.cgroupCPULimit(root: try directory(["cpu.max": "max 100000\n"])), "none")
        XCTAssertEqual(
            Provenance.cgroupCPULimit(root: try directory(["cpu/cpu.cfs_quota_us": "200000", "cpu/cpu.cfs_period_us": "100000"])), "2.00")
        XCTAssertEqual(
            Provenance.cgroupCPULimit(root: try directory(["cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"])), "none")
        XCTAssertEqual(Provenance.cgroupCPULimit(root: try directory([:])), "none")
    }

    func testTheGovernorIsReadOrNone() throws {
        XCTAssertEqual(Provenance.frequencyGovernor(root: try directory(["cpu0/cpufreq/scaling_governor": "performance\n"])), "performance")
        XCTAssertEqual(Provenance.frequencyGovernor(root: try directory([:])), "none")
    }

    /// A gate's baseline may be a build from before the testbed fields: its child's
    /// provenance must still decode.
    func testAProvenanceWithoutTheTestbedFieldsDecodes() throws {
        let old = #"{"runID":"r","timestamp":"t","host":"h","cpu":"c","cores":2,"os":"o","swift":"6.3.1","commit":"x","build":"release"}"#
        let decoded = try JSONDecoder().decode(Provenance.self, from: Data(old.utf8))
        XCTAssertEqual(decoded.cores, 2)
        XCTAssertEqual(decoded.kernel, Provenance.unrecorded)
        let current = Provenance.current()
        XCTAssertEqual(try JSONDecoder().decode(Provenance.self, from: JSONEncoder().encode(current)), current)
    }

    func testTestbedDifferencesNameEachColumnAndUnrecordedValues() {
        let base = Provenance(
            runID: "a", timestamp: "t", host: "h1", cpu: "EPYC", cores: 2, os: "Debian", swift: "6.3.1", commit: "c1", build: "release",
            kernel: "6.1", governor: "none", cpuLimit: "none", loadAverage: "0.2")
        var new = base
        new.host = "h2"
        new.commit = "c2"
        new.loadAverage = "1.9"
        XCTAssertEqual(base.testbedDifferences(from: new), [], "host, commit and load are not the testbed")
        new.kernel = "6.8"
        new.cpuLimit = "1.50"
        XCTAssertEqual(base.testbedDifferences(from: new), ["kernel '6.1' vs '6.8'", "cpu_limit 'none' vs '1.50'"])
        let old = Provenance(
            runID: "o", timestamp: "t", host: "h", cpu: "EPYC", cores: 2, os: "Debian", swift: "6.3.1", commit: "c", build: "release")
        XCTAssertEqual(
            old.testbedDifferences(from: base), ["kernel not recorded by BASE", "governor not recorded by BASE", "cpu_limit not recorded by BASE"])
        XCTAssertTrue(old.testbedDifferences(from: old).contains("kernel recorded by neither run"))
    }
}
