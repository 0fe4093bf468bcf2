import Foundation
import GRDB
import XCTest

@testable import SchedulerBench

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

    func testTheSchemaIsMigratedByGRDBAndKeptAcrossOpenings() throws {
        let file = path()
        _ = try History(.sqlite(path: file), create: true).add(
            [HistoryFixtures.result(HistoryFixtures.benchCase(), nanos: [1])], provenance: HistoryFixtures.provenance("a", minute: 1))
        let queue = try DatabaseQueue(path: file)
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }, ["v1"])
        try queue.close()
        XCTAssertEqual(try History(.sqlite(path: file), create: false).runs().map(\.runID), ["a"])
    }

    func testReadingAMissingHistoryIsAnErrorAndCreatesNothing() throws {
        let file = path() + "-missing/history.sqlite"
        XCTAssertThrowsError(try History(.sqlite(path: file), create: false)) { error in
            XCTAssertTrue("\(error)".contains("no history here yet"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
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
        try newerQueue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2')") }
        try newerQueue.close()
        try assertRefused(newer, saying: "was written by a newer schedbench (schema v2); this one knows up to v1")
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
