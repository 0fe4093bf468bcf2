import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

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

    /// URL schemes are case-insensitive (RFC 3986): `POSTGRES://…` is the server, not a
    /// file named `POSTGRES:`; any other scheme is an error, and no message shows the password.
    func testSchemesAreCaseInsensitiveAndAnUnknownOneIsAnError() throws {
        for text in ["POSTGRES://ci:S3cretPW@db.internal/bench", "Postgres://ci:S3cretPW@db.internal/bench", "PostgreSQL://ci:S3cretPW@db.internal/bench"] {
            let location = try HistoryLocation(text, environment: [:])
            guard case .postgres(let address) = location else { return XCTFail("\(text) read as \(location)") }
            XCTAssertEqual(address.host, "db.internal")
            XCTAssertEqual(address.password, "S3cretPW")
            XCTAssertFalse(location.description.contains("S3cretPW"))
        }
        for text in ["mysql://x/y", "sqlite://ci:S3cretPW@host/db", "HTTP://example/history"] {
            XCTAssertThrowsError(try HistoryLocation(text, environment: [:])) { error in
                XCTAssertTrue("\(error)".contains("URL scheme"), "\(text): \(error)")
                XCTAssertFalse("\(error)".contains("S3cretPW"), "\(text): \(error)")
            }
        }
        XCTAssertEqual(try HistoryLocation("./odd:name.sqlite"), .sqlite(path: "./odd:name.sqlite"), "a path with a colon is still a path")
    }

    func testAPortOutsideItsRangeIsRefusedAndAnIPv6LiteralLosesItsBrackets() throws {
        for port in ["0", "65536", "99999"] {
            XCTAssertThrowsError(try HistoryLocation("postgres://ci@localhost:\(port)/bench", environment: [:])) { error in
                XCTAssertTrue("\(error)".contains("port \(port) is outside 1...65535"), "\(error)")
            }
        }
        let location = try HistoryLocation("postgres://ci@[::1]:6000/bench", environment: [:])
        guard case .postgres(let address) = location else { return XCTFail("\(location)") }
        XCTAssertEqual(address.host, "::1")
        XCTAssertEqual(address.port, 6000)
        XCTAssertEqual(location.description, "postgres://ci@[::1]:6000/bench")
    }
}
