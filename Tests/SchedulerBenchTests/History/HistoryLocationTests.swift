import XCTest

@testable import SchedulerBench

final class HistoryLocationTests: XCTestCase {
    func testAPathIsSQLite() throws {
        XCTAssertEqual(try HistoryLocation("results/history.sqlite"), .sqlite(path: "results/history.sqlite"))
        XCTAssertThrowsError(try HistoryLocation(" "))
    }

    func testAPostgresURL() throws {
        let location = try HistoryLocation("postgres://ci:s%40cret@db.example:6543/bench?sslmode=require", environment: [:])
        guard case .postgres(let address) = location else { return XCTFail("\(location)") }
        XCTAssertEqual(address.host, "db.example")
        XCTAssertEqual(address.port, 6543)
        XCTAssertEqual(address.user, "ci")
        XCTAssertEqual(address.password, "s@cret")
        XCTAssertEqual(address.database, "bench")
        XCTAssertEqual(address.tls, .require)
        XCTAssertEqual(location.description, "postgres://ci@db.example:6543/bench", "no password in messages")
    }

    func testDefaultsAndThePasswordFromTheEnvironment() throws {
        guard case .postgres(let address) = try HistoryLocation("postgresql://ci@localhost/bench", environment: ["PGPASSWORD": "pw"]) else {
            return XCTFail()
        }
        XCTAssertEqual(address.port, 5432)
        XCTAssertEqual(address.tls, .prefer)
        XCTAssertEqual(address.password, "pw")
    }

    func testAnIncompleteURLSaysWhatIsMissingWithoutThePassword() {
        for (text, expected) in [
            ("postgres://localhost/bench", "names no user"),
            ("postgres://ci:hunter2@/bench", "names no host"),
            ("postgres://ci:hunter2@localhost", "names no database"),
            ("postgres://ci@localhost/bench?sslmode=maybe", "sslmode 'maybe'"),
            ("postgres://ci@localhost/bench?timeout=3", "unknown parameter 'timeout'"),
        ] {
            XCTAssertThrowsError(try HistoryLocation(text, environment: [:])) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
                XCTAssertFalse("\(error)".contains("hunter2"), "\(text): \(error)")
            }
        }
    }
}
