import Foundation
import XCTest

@testable import BenchChild
@testable import BenchModel
import BenchTestSupport

/// Reading this machine and process (`Provenance.current()`).
final class ProvenanceProbeTests: XCTestCase {
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
}
