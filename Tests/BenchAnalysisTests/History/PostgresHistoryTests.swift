import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The history's behaviour against a real PostgreSQL server: `scripts/test.sh` starts one on
/// loopback and sets `SCHEDBENCH_TEST_POSTGRES_URL`. Each test starts from an empty database
/// (the history's tables dropped).
final class PostgresHistoryTests: XCTestCase {
    private var url: String!

    override func setUpWithError() throws {
        #if PostgreSQL
        guard let url = ProcessInfo.processInfo.environment["SCHEDBENCH_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw XCTSkip("no PostgreSQL server: SCHEDBENCH_TEST_POSTGRES_URL is not set (scripts/test.sh starts one and sets it)")
        }
        self.url = url
        try dropEverything()
        #else
        throw XCTSkip("built without the PostgreSQL trait (scripts/test.sh builds the debug pass with it)")
        #endif
    }

    #if PostgreSQL
    private var address: HistoryLocation.PostgresAddress {
        guard case .postgres(let address) = try! HistoryLocation(url) else { fatalError("not a postgres URL: \(url!)") }
        return address
    }

    /// A connection that does not migrate: the history's tables may be missing or foreign.
    private func raw(_ body: (any SQLConnection) throws -> Void) throws {
        let database = try PostgresDatabase(address: address, migrating: false)
        defer { database.close() }
        try database.transaction(body)
    }

    private func dropEverything() throws {
        try raw { try $0.execute("DROP TABLE IF EXISTS trials, runs, schedbench_history, schedbench_migrations", []) }
    }

    private func fresh() throws -> History {
        try dropEverything()
        return try History(.postgres(address), create: true)
    }

    func testAddsARunOnceAndListsIt() throws { try HistoryBehaviour.addsARunOnceAndListsIt(fresh) }
    func testWindowsHoldEarlierRunsOfTheSameTestbedAndCase() throws { try HistoryBehaviour.windowsHoldEarlierRunsOfTheSameTestbedAndCase(fresh) }
    func testTrendsAreMediansPerCaseAndTestbed() throws { try HistoryBehaviour.trendsAreMediansPerCaseAndTestbed(fresh) }
    func testAFailedAddStoresNothing() throws { try HistoryBehaviour.aFailedAddStoresNothing(fresh) }

    func testTheSchemaIsVersionedAndMigratedOnce() throws {
        _ = try History(.postgres(address), create: true)
        _ = try History(.postgres(address), create: true)
        try raw { connection in
            XCTAssertEqual(try connection.query("SELECT identifier FROM schedbench_migrations ORDER BY identifier", []), [[.text("v1")], [.text("v2")]])
        }
    }

    func testRunnersStartingTogetherMigrateOnce() throws {
        let errors = ErrorList()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                _ = try History(.postgres(address), create: true).add(
                    [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])],
                    provenance: HistoryFixtures.provenance("runner-\(index)", minute: index))
            } catch {
                errors.append(error)
            }
        }
        XCTAssertEqual(errors.all.map { "\($0)" }, [])
        XCTAssertEqual(try History(.postgres(address), create: false).runs().count, 4)
    }

    func testAForeignOrNewerDatabaseIsLeftAlone() throws {
        try raw { connection in
            try connection.execute("CREATE TABLE runs (id BIGINT)", [])
            try connection.execute("INSERT INTO runs VALUES (42)", [])
        }
        XCTAssertThrowsError(try History(.postgres(address), create: true)) { error in
            XCTAssertTrue("\(error)".contains("is not a schedbench history"), "\(error)")
        }
        try raw { connection in
            XCTAssertEqual(try connection.query("SELECT id FROM runs", []), [[.integer(42)]])
        }
        try dropEverything()
        _ = try History(.postgres(address), create: true)
        try raw { try $0.execute("INSERT INTO schedbench_migrations VALUES ('v99')", []) }
        XCTAssertThrowsError(try History(.postgres(address), create: true)) { error in
            XCTAssertTrue("\(error)".contains("was written by a newer schedbench (schema v99)"), "\(error)")
        }
    }

    func testAnUnreachableServerIsAClearError() throws {
        var unreachable = address
        unreachable.port = 1
        XCTAssertThrowsError(try History(.postgres(unreachable), create: true)) { error in
            XCTAssertTrue("\(error)".contains("cannot connect: nothing listens at 127.0.0.1:1 (connection refused)"), "\(error)")
        }
    }

    /// The server asks for a password (scram over TCP) and none was given: say where to give it.
    func testAMissingPasswordSaysWhereToGiveIt() throws {
        var anonymous = address
        anonymous.password = nil
        XCTAssertThrowsError(try History(.postgres(anonymous), create: true)) { error in
            XCTAssertTrue("\(error)".contains("give it in the URL (postgres://user:password@…) or in PGPASSWORD"), "\(error)")
        }
    }

    /// The test server offers no TLS: sslmode=require cannot be met, and the message says
    /// which sslmode would connect.
    func testTLSTheServerDoesNotOfferNamesTheSSLModeToUse() throws {
        var demanding = address
        demanding.tls = .require
        XCTAssertThrowsError(try History(.postgres(demanding), create: true)) { error in
            XCTAssertTrue("\(error)".contains("add ?sslmode=disable"), "\(error)")
        }
    }
    #endif
}
