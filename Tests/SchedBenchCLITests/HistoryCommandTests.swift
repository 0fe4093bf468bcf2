import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// `history add/list/trend`, `compare --history` and `run --history`, as a user runs them:
/// on SQLite always, on PostgreSQL when `scripts/test.sh` started a server.
final class HistoryCommandTests: SchedBenchTestCase {
    private var seed: UInt64 = 0x5EED

    private func noise() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53) - 0.5  // -0.5 ..< 0.5
    }

    /// A run of two cases on this machine's testbed, started at `minute`, ns/event around
    /// `level` (±1.5% between trials).
    private func writeRun(minute: Int, level: Double = 100, runID: String? = nil) throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var provenance = Provenance.current()
        provenance.runID = runID ?? "run-\(minute)"
        provenance.timestamp = String(format: "2026-11-01T10:%02d:00Z", minute)
        provenance.commit = "commit\(minute)"
        let cases = [SchedulerName.serial, .concurrent].map { scheduler -> CaseResult in
            let benchCase = BenchCase(
                suite: "quick", workload: .observeOnThroughput, scheduler: scheduler, strategy: .drain, producers: 1, events: 1_000,
                payloadBytes: 0, rateHz: 0)
            let trials = (1...8).map { trial -> TrialRecord in
                let value = level * (1 + 0.03 * noise())
                return TrialRecord(benchCase: benchCase, trial: trial, metrics: [.nsPerEvent: value, .eventsPerSec: 1e9 / value])
            }
            return CaseResult(benchCase: benchCase, trials: trials)
        }
        try ResultsFiles.write(cases, provenance: provenance, to: directory)
        return directory
    }

    private func database() throws -> String { try temporaryDirectory().appendingPathComponent("history.sqlite").path }

    func testAddListTrendAndCompareOnSQLite() throws {
        try exerciseHistory(db: try database())
    }

    func testAddListTrendAndCompareOnPostgreSQL() throws {
        guard let url = ProcessInfo.processInfo.environment["SCHEDBENCH_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw XCTSkip("no PostgreSQL server: SCHEDBENCH_TEST_POSTGRES_URL is not set (scripts/test.sh starts one and sets it)")
        }
        guard try schedbench(["history", "list", "--db", url]).stderr.contains("without PostgreSQL support") == false else {
            throw XCTSkip("this schedbench was built without the PostgreSQL trait")
        }
        try exerciseHistory(db: url, fresh: true)
    }

    private func exerciseHistory(db: String, fresh: Bool = false) throws {
        let runs = try (1...6).map { try writeRun(minute: $0) }
        if fresh {
            // The tests share one server: start from an empty history, through the history's own reset.
            try dropHistoryTables(db)
        }
        let add = try schedbench(["history", "add"] + runs.map(\.path) + ["--db", db])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout.split(separator: "\n").filter { $0.hasPrefix("added run-") }.count, 6, add.stdout)
        let again = try schedbench(["history", "add", runs[0].path, "--db", db])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("run-1 is already in"), again.stdout)

        let list = try schedbench(["history", "list", "--db", db])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("6 runs"), list.stdout)
        XCTAssertTrue(list.stdout.contains("commit3"), list.stdout)
        XCTAssertTrue(list.stdout.contains("testbeds:\n"), list.stdout)

        let trend = try schedbench([
            "history", "trend", "--db", db, "--workload", "observeOn.throughput", "--metric", "ns_per_event", "--scheduler", "serial",
        ])
        XCTAssertEqual(trend.status, 0, trend.stderr)
        XCTAssertTrue(trend.stdout.contains("observeOn.throughput serial/drain p=1 n=1000 — ns_per_event (ns)"), trend.stdout)
        XCTAssertTrue(trend.stdout.contains("6 of 6 runs"), trend.stdout)
        XCTAssertFalse(trend.stdout.contains("concurrent/drain"), "narrowed to serial")

        // NEW 30% slower than the window: regressed; NEW as the window: no regression.
        let slower = try writeRun(minute: 7, level: 130)
        let regressed = try schedbench(["compare", "--history", db, slower.path])
        XCTAssertEqual(regressed.status, 2, regressed.stdout + regressed.stderr)
        XCTAssertTrue(regressed.stdout.contains("compare against the history: regressed"), regressed.stdout)
        XCTAssertTrue(regressed.stdout.contains("window (runs)"), regressed.stdout)
        XCTAssertTrue(regressed.stdout.contains("(6)"), "the window's size is shown: \(regressed.stdout)")
        let same = try writeRun(minute: 8, level: 100)
        let passed = try schedbench(["compare", "--history", db, same.path, "--window", "3", "--format", "csv"])
        XCTAssertEqual(passed.status, 0, passed.stdout + passed.stderr)
        XCTAssertTrue(passed.stdout.split(separator: "\n")[1].hasSuffix(",3,window,,"), "base_runs is the window, no unstable repeat, no noise floor: \(passed.stdout)")
        // A run that started before every stored one has nothing to be judged against.
        let early = try writeRun(minute: 0)
        let nothing = try schedbench(["compare", "--history", db, early.path])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("nothing to compare: no run in the history"), nothing.stderr)
    }

    func testRunAddsItselfWhenItFinishesCleanly() throws {
        let db = try database()
        let out = try temporaryDirectory()
        let run = try schedbench([
            "run", "--suite", "quick", "--workload", "main.inline", "--trials", "2", "--warmup", "0", "--events", "2000", "--no-allocations",
            "--out", out.path, "--history", db, "--no-table",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("added "), run.stderr)
        let list = try schedbench(["history", "list", "--db", db])
        XCTAssertTrue(list.stdout.contains("1 runs"), list.stdout)
        // `--history` alone names the default file.
        let parsed = try XCTUnwrap(try SchedBench.parseAsRoot(["run", "--history", "--quiet"]) as? RunCommand)
        XCTAssertEqual(parsed.history, "results/history.sqlite")
        XCTAssertTrue(parsed.quiet)
    }

    func testBadInputLosesNothingStored() throws {
        let db = try database()
        let good = try writeRun(minute: 1)
        XCTAssertEqual(try schedbench(["history", "add", good.path, "--db", db]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))

        // A corrupted run beside a good one: nothing is added, and the reason names the row.
        let corrupted = try writeRun(minute: 2)
        let csv = corrupted.appendingPathComponent("results.csv")
        let text = try String(contentsOf: csv, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var broken = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        broken[broken.count - 2] = "NaN"
        try (([String(lines[0]), broken.joined(separator: ",")] + lines[2...].map(String.init)).joined(separator: "\n")).write(
            to: csv, atomically: true, encoding: .utf8)
        let another = try writeRun(minute: 3)
        let add = try schedbench(["history", "add", another.path, corrupted.path, "--db", db])
        XCTAssertEqual(add.status, 1)
        XCTAssertTrue(add.stderr.contains("row 2"), add.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before, "nothing added, not even the good run")

        // A file that is not a history.
        let notes = try temporaryDirectory().appendingPathExtension("txt")
        try Data("hello\n".utf8).write(to: notes)
        for arguments in [
            ["history", "add", good.path, "--db", notes.path], ["history", "list", "--db", notes.path],
            ["compare", "--history", notes.path, good.path],
        ] {
            let result = try schedbench(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("\(notes.path): is not a SQLite database; nothing was changed"), result.stderr)
        }
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "hello\n")

        let missing = try schedbench(["history", "list", "--db", db + ".missing"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no history here yet"), missing.stderr)
        let url = try schedbench(["history", "list", "--db", "postgres://ci:secret@localhost"])
        XCTAssertEqual(url.status, 64)
        XCTAssertTrue(url.stderr.contains("names no database"), url.stderr)
        XCTAssertFalse(url.stderr.contains("secret"), url.stderr)
        let metric = try schedbench(["history", "trend", "--db", db, "--workload", "observeOn.throughput", "--metric", "speed"])
        XCTAssertEqual(metric.status, 64)
        XCTAssertTrue(metric.stderr.contains("unknown --metric 'speed'"), metric.stderr)
        let arity = try schedbench(["compare", good.path])
        XCTAssertEqual(arity.status, 64)
        XCTAssertTrue(arity.stderr.contains("give BASE and NEW (1 run given), or NEW with --history"), arity.stderr)
        let window = try schedbench(["compare", "--history", db, good.path, "--window", "1"])
        XCTAssertEqual(window.status, 64)
    }

    /// Defect: `history add` waited for ever on a server stopped with `pg_ctl -m immediate`
    /// in the middle of it. Now every statement has a deadline and a closed connection ends
    /// the wait: exit 1 within 30 s, naming the server; the run being added is not stored.
    func testAServerThatDiesMidAddIsAnErrorNamingItWithinThirtySeconds() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_URL"], let stop = environment["SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_KILL"]
        else {
            throw XCTSkip("no expendable PostgreSQL server: scripts/test.sh starts one and sets SCHEDBENCH_TEST_POSTGRES_EXPENDABLE_URL")
        }
        guard try schedbench(["history", "list", "--db", url]).stderr.contains("without PostgreSQL support") == false else {
            throw XCTSkip("this schedbench was built without the PostgreSQL trait")
        }
        let runs = try (1...300).map { try writeRun(minute: $0 % 60, runID: "dying-\($0)") }
        let add = try launch(["history", "add"] + runs.map(\.path) + ["--db", url])
        // Standard output is flushed per line: the first "added" is seen while the rest are added.
        XCTAssertTrue(add.waitFor(seconds: 120) { out, _ in out.contains("added dying-1 ") }, "no run was added:\n\(add.stderr)")
        let killer = try Process.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", stop])
        killer.waitUntilExit()
        let killed = Date()
        let status = add.exitStatus(within: 30)
        XCTAssertNotNil(status, "history add still ran 30 s after its server died")
        XCTAssertEqual(status, 1, add.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(killed), 30)
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        XCTAssertTrue(add.stderr.contains("127.0.0.1:\(port)"), "the error names the server:\n\(add.stderr)")
        XCTAssertFalse(add.stdout.contains("added dying-300 "), "the server died before the last run:\n\(add.stdout)")
    }

    /// Defect: four processes adding to one new SQLite file lost runs ("table
    /// schedbench_history already exists"). Now the schema is created under the write lock.
    func testProcessesAddingToOneNewFileTogetherStoreEveryRun() throws {
        let runs = try (1...8).map { try writeRun(minute: $0, runID: "parallel-\($0)") }
        for writers in [4, 8] {
            let db = try database()
            let adds = try (0..<writers).map { try launch(["history", "add", runs[$0].path, "--db", db]) }
            for add in adds { XCTAssertEqual(add.exitStatus(within: 120), 0, add.stderr) }
            let list = try schedbench(["history", "list", "--db", db])
            XCTAssertTrue(list.stdout.contains("\(writers) runs"), list.stdout)
        }
    }

    /// Defect: `--db 'POSTGRES://…'` created a SQLite file named `POSTGRES:` and printed the
    /// password; `mysql://…` did the same. URL schemes are case-insensitive, and an unknown
    /// one is a usage error.
    func testAURLIsNeverTakenForAFileNorItsPasswordPrinted() throws {
        let run = try writeRun(minute: 1)
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let upper = try schedbench(
            ["history", "add", run.path, "--db", "POSTGRES://ci:S3cretPW@127.0.0.1:1/bench?sslmode=disable"], workingDirectory: directory)
        XCTAssertEqual(upper.status, 1, upper.stderr)
        XCTAssertFalse((upper.stdout + upper.stderr).contains("S3cretPW"), upper.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "no file was made of the URL")
        let mysql = try schedbench(["history", "add", run.path, "--db", "mysql://ci:S3cretPW@x/y"], workingDirectory: directory)
        XCTAssertEqual(mysql.status, 64, mysql.stderr)
        XCTAssertTrue(mysql.stderr.contains("has the URL scheme 'mysql', which is not a history"), mysql.stderr)
        XCTAssertFalse(mysql.stderr.contains("S3cretPW"), mysql.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    /// Defects: a run id holding terminal escapes was printed raw by `history add` and
    /// `list`; a 20,000-character one was stored and stretched the table.
    func testRunIDsReachTheTerminalEscapedAndWithinALength() throws {
        let db = try database()
        let hostile = try writeRun(minute: 1, runID: "evil\u{1B}[2J\u{1B}[31mred")
        let add = try schedbench(["history", "add", hostile.path, "--db", db])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertFalse(add.stdout.contains("\u{1B}"), add.stdout)
        XCTAssertTrue(add.stdout.contains("added evil\\u{1B}[2J\\u{1B}[31mred to "), add.stdout)
        let list = try schedbench(["history", "list", "--db", db])
        XCTAssertFalse(list.stdout.contains("\u{1B}"), list.stdout)
        XCTAssertTrue(list.stdout.contains("evil\\u{1B}[2J"), list.stdout)
        let long = try writeRun(minute: 2, runID: String(repeating: "x", count: 20_000))
        let refused = try schedbench(["history", "add", long.path, "--db", db])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("a run id of 20000 characters"), refused.stderr)
        XCTAssertLessThan(refused.stderr.count, 1_000, "the message does not repeat the id")
        XCTAssertTrue(try schedbench(["history", "list", "--db", db]).stdout.contains("1 runs"))
    }

    private func dropHistoryTables(_ url: String) throws {
        #if PostgreSQL
        guard case .postgres(let address) = try HistoryLocation(url) else { return }
        let database = try PostgresDatabase(address: address, migrating: false)
        defer { database.close() }
        try database.transaction { try $0.execute("DROP TABLE IF EXISTS trials, runs, schedbench_history, schedbench_migrations", []) }
        #endif
    }
}
