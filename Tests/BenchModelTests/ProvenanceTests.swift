import XCTest

@testable import BenchModel

final class ProvenanceTests: XCTestCase {
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
