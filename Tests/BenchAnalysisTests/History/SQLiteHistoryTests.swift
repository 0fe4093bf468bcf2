import Foundation
import GRDB
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class SQLiteHistoryTests: XCTestCase {
    private func path(_ name: String = "history.sqlite") -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-history-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    private func fresh() throws -> History { try History(.sqlite(path: path()), create: true) }

    func testAddsARunOnceAndListsIt() throws { try HistoryBehaviour.addsARunOnceAndListsIt(fresh) }
    func testWindowsHoldEarlierRunsOfTheSameTestbedAndCase() throws { try HistoryBehaviour.windowsHoldEarlierRunsOfTheSameTestbedAndCase(fresh) }
    func testTrendsAreMediansPerCaseAndTestbed() throws { try HistoryBehaviour.trendsAreMediansPerCaseAndTestbed(fresh) }
    func testAFailedAddStoresNothing() throws { try HistoryBehaviour.aFailedAddStoresNothing(fresh) }

    func testTheSchemaIsVersionedAndKeptAcrossOpenings() throws {
        let file = path()
        _ = try History(.sqlite(path: file), create: true).add(
            [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])], provenance: HistoryFixtures.provenance("a", minute: 1))
        let queue = try DatabaseQueue(path: file)
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM schedbench_migrations ORDER BY identifier") }, ["v1", "v2"])
        try queue.close()
        XCTAssertEqual(try History(.sqlite(path: file), create: false).runs().map(\.runID), ["a"])
    }

    /// A history made by the builds that migrated with GRDB's migrator (migrations recorded in
    /// `grdb_migrations` only, schema v1), written here as they wrote it: it opens, keeps its
    /// runs and takes new ones; its bookkeeping moves to `schedbench_migrations`, the one
    /// migrations table, and the legacy table is dropped.
    func testAHistoryOfTheEarlierBuildsOpensAndKeepsItsRuns() throws {
        let file = path()
        let queue = try DatabaseQueue(path: file)
        var migrator = DatabaseMigrator()
        let v1 = try XCTUnwrap(HistorySchema.migrations.first { $0.identifier == "v1" })
        migrator.registerMigration(v1.identifier) { db in
            for statement in v1.statements { try db.execute(sql: statement) }
        }
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs VALUES ('old-run', '2026-11-20T10:00:00Z', 'vm', 'AMD EPYC', 2, 'Debian', '6.3.1', 'abc', 'release',
                        'k', 'none', 'none', '0.1', 'cpu=AMD EPYC; cores=2', 'quick', 1, '2026-11-20T10:05:00Z')
                    """)
        }
        try queue.close()

        let history = try History(.sqlite(path: file), create: true)
        XCTAssertEqual(try history.runs().map(\.runID), ["old-run"])
        _ = try history.add([HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])], provenance: HistoryFixtures.provenance("new", minute: 1))
        let reopened = try DatabaseQueue(path: file)
        defer { try? reopened.close() }
        XCTAssertEqual(try reopened.read { try String.fetchAll($0, sql: "SELECT identifier FROM schedbench_migrations ORDER BY identifier") }, ["v1", "v2"])
        XCTAssertFalse(try reopened.read { try $0.tableExists("grdb_migrations") })
        XCTAssertEqual(try reopened.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") }, 2)
    }

    /// A history file written by the build before schema v2 (Tests/Fixtures): it opens and
    /// migrates; its schedule.throughput cases on serial and concurrent, stored under
    /// `none`, now read as `perAction`, so a new run of those cases is judged against them.
    func testAHistoryMadeBeforeSchemaV2Migrates() throws {
        let fixture = Repository.file("Tests/Fixtures/history-schema-v1.sqlite")
        let file = path()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: file)

        let history = try History(.sqlite(path: file), create: false)
        let stored = try XCTUnwrap(try history.runs().first)
        let queue = try DatabaseQueue(path: file)
        defer { try? queue.close() }
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM schedbench_migrations ORDER BY identifier") }, ["v1", "v2"])
        let strategies = try queue.read {
            try Row.fetchAll($0, sql: "SELECT DISTINCT scheduler, strategy FROM trials ORDER BY scheduler").map { "\($0["scheduler"] as String)/\($0["strategy"] as String)" }
        }
        XCTAssertEqual(strategies, ["concurrent/perAction", "currentThread/none", "serial/perAction"])

        // A new run of the serial case on the same testbed finds the stored run in its window.
        let benchCase = BenchCase(
            suite: "default", workload: .scheduleThroughput, scheduler: .serial, strategy: .perAction, producers: 1, events: 2_000, payloadBytes: 0,
            rateHz: 0)
        let row = try XCTUnwrap(try queue.read { try Row.fetchOne($0, sql: "SELECT * FROM runs WHERE run_id = ?", arguments: [stored.runID]) })
        let later = Provenance(
            runID: "later", timestamp: "2100-01-01T00:00:00Z", host: row["host"], cpu: row["cpu"], cores: row["cores"], os: row["os"],
            swift: row["swift"], commit: "new", build: row["build"], kernel: row["kernel"], governor: row["governor"], cpuLimit: row["cpu_limit"],
            loadAverage: "0.1")
        XCTAssertEqual(later.testbedKey, stored.testbed)
        let window = try history.window(for: later, cases: [benchCase], size: 5)
        XCTAssertEqual(window[benchCase]?.count, 1)
    }

    /// Runners that create one new history file at once (parallel CI jobs sharing a cache):
    /// every one's run is stored, none fails on "table already exists".
    func testWritersCreatingANewHistoryTogetherAllStoreTheirRuns() throws {
        for writers in [4, 8] {
            for _ in 0..<5 {
                let file = path()
                let errors = ErrorList()
                DispatchQueue.concurrentPerform(iterations: writers) { index in
                    do {
                        _ = try History(.sqlite(path: file), create: true).add(
                            [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1, 2])],
                            provenance: HistoryFixtures.provenance("writer-\(index)", minute: index))
                    } catch {
                        errors.append(error)
                    }
                }
                XCTAssertEqual(errors.all.map { "\($0)" }, [], "\(writers) writers")
                XCTAssertEqual(try History(.sqlite(path: file), create: false).runs().count, writers)
            }
        }
    }

    func testReadingAMissingHistoryIsAnErrorAndCreatesNothing() throws {
        let file = path() + "-missing/history.sqlite"
        XCTAssertThrowsError(try History(.sqlite(path: file), create: false)) { error in
            XCTAssertTrue("\(error)".contains("no history here yet"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }

    /// A history whose file or directory cannot be written still opens for reading (list,
    /// compare); adding says which of them is the reason.
    func testAReadOnlyHistoryOpensForReadingAndSaysWhyItCannotBeWritten() throws {
        let file = path()
        _ = try History(.sqlite(path: file), create: true).add(
            [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])], provenance: HistoryFixtures.provenance("a", minute: 1))
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        try Self.makeReadOnly(directory)
        defer { Self.makeWritable(directory) }
        let history = try History(.sqlite(path: file), create: false)
        XCTAssertEqual(try history.runs().map(\.runID), ["a"])
        XCTAssertThrowsError(
            try history.add([HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])], provenance: HistoryFixtures.provenance("b", minute: 2))
        ) { error in
            XCTAssertTrue("\(error)".contains("its directory \(directory) is not writable"), "\(error)")
        }
    }

    /// Read-only for everyone, root included: root ignores permission bits, but not the
    /// immutable attribute (`chattr +i`).
    private static func makeReadOnly(_ directory: String) throws {
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { throw XCTSkip("as root this needs chattr (e2fsprogs)") }
            let chattr = try Process.run(URL(fileURLWithPath: "/usr/bin/chattr"), arguments: ["+i", directory])
            chattr.waitUntilExit()
            guard chattr.terminationStatus == 0 else { throw XCTSkip("chattr +i failed here (the file system may not support it)") }
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        }
    }

    private static func makeWritable(_ directory: String) {
        if getuid() == 0, let chattr = try? Process.run(URL(fileURLWithPath: "/usr/bin/chattr"), arguments: ["-i", directory]) {
            chattr.waitUntilExit()
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
    }

    func testAFileNameLongerThanTheFileSystemAllowsIsSaidSo() throws {
        let file = URL(fileURLWithPath: path()).deletingLastPathComponent().appendingPathComponent(String(repeating: "h", count: 300) + ".sqlite").path
        XCTAssertThrowsError(try History(.sqlite(path: file), create: true)) { error in
            XCTAssertTrue("\(error)".contains("its file name is 307 bytes long, and this file system allows 255"), "\(error)")
        }
    }

    func testADirectoryIsNotAHistory() throws {
        let directory = path()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertThrowsError(try History(.sqlite(path: directory), create: true)) { error in
            XCTAssertTrue("\(error)".contains("is a directory"), "\(error)")
        }
    }

    /// Foreign, corrupted and newer databases: a clear error, and the file as it was.
    func testADatabaseThatIsNotAHistoryIsLeftAlone() throws {
        let text = path("notes.sqlite")
        try Data("these are not the runs you are looking for\n".utf8).write(to: URL(fileURLWithPath: text))
        try assertRefused(text, saying: "is not a SQLite database")

        let foreign = path("app.sqlite")
        let queue = try DatabaseQueue(path: foreign)
        try queue.write { try $0.execute(sql: "CREATE TABLE runs (id INTEGER); INSERT INTO runs VALUES (42)") }
        try queue.close()
        try assertRefused(foreign, saying: "is not a schedbench history (tables: runs)")

        let newer = path("newer.sqlite")
        _ = try History(.sqlite(path: newer), create: true)
        let newerQueue = try DatabaseQueue(path: newer)
        try newerQueue.write { try $0.execute(sql: "INSERT INTO schedbench_migrations (identifier) VALUES ('v99')") }
        try newerQueue.close()
        try assertRefused(newer, saying: "was written by a newer schedbench (schema v99); this one knows up to v2")
    }

    /// A history cut short (a disk that filled, a copy that stopped): refused, left as it is.
    func testATruncatedHistoryIsRefusedAndLeftAlone() throws {
        let file = path()
        let history = try History(.sqlite(path: file), create: true)
        for minute in 1...20 {
            _ = try history.add(
                [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: Array(repeating: Double(minute), count: 50))],
                provenance: HistoryFixtures.provenance("run-\(minute)", minute: minute))
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertGreaterThan(whole.count, 8 * 4_096)
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: file))
        let cut = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try History(.sqlite(path: file), create: false).runs()) { error in
            XCTAssertTrue("\(error)".contains("corrupted SQLite database"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), cut)
    }

    private func assertRefused(_ file: String, saying expected: String, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        for create in [true, false] {
            XCTAssertThrowsError(try History(.sqlite(path: file), create: create), line: line) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)", line: line)
                XCTAssertTrue("\(error)".contains(file), "names the file: \(error)", line: line)
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "the file is unchanged", line: line)
    }
}
