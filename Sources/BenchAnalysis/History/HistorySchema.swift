import BenchChild
import BenchModel
/// The history's tables, as an ordered list of migrations, and the one procedure that
/// applies them (`migrate`): the same statements create and upgrade the schema in SQLite
/// and in PostgreSQL, and both record the applied migrations in one table,
/// `schedbench_migrations`. A migration, once released, never changes; a new schema version
/// is a new migration at the end.
///
/// Version 2 renames the cases of an axis that was added (see the migration); version 1:
/// - `schedbench_history(key, value)`: what this database is (`format` = `schedbench-history`),
///   so a database that holds something else is recognized and left alone;
/// - `runs`: one row per run, its provenance and `testbed` (the columns a measurement depends
///   on besides the code, in one text: runs compare only on an equal testbed);
/// - `trials`: one row per run × case × trial × metric, as in results.csv.
package enum HistorySchema {
    struct Migration {
        var identifier: String
        var statements: [String]
    }

    /// The marker's key and value in `schedbench_history`.
    static let formatKey = "format"
    static let formatValue = "schedbench-history"

    /// The tables a history has; a database that has some of them but no marker is foreign.
    static let tables = ["schedbench_history", "runs", "trials"]

    static let caseColumns = ["suite", "workload", "scheduler", "strategy", "producers", "events", "payload_bytes", "rate_hz"]

    static let migrations: [Migration] = [
        Migration(
            identifier: "v1",
            statements: [
                "CREATE TABLE schedbench_history (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                "INSERT INTO schedbench_history (key, value) VALUES ('\(formatKey)', '\(formatValue)')",
                """
                CREATE TABLE runs (
                    run_id TEXT PRIMARY KEY,
                    started_at TEXT NOT NULL,
                    host TEXT NOT NULL,
                    cpu TEXT NOT NULL,
                    cores BIGINT NOT NULL,
                    os TEXT NOT NULL,
                    swift TEXT NOT NULL,
                    commit_id TEXT NOT NULL,
                    build TEXT NOT NULL,
                    kernel TEXT NOT NULL,
                    governor TEXT NOT NULL,
                    cpu_limit TEXT NOT NULL,
                    load_avg TEXT NOT NULL,
                    testbed TEXT NOT NULL,
                    suite TEXT NOT NULL,
                    cases BIGINT NOT NULL,
                    added_at TEXT NOT NULL
                )
                """,
                "CREATE INDEX runs_by_testbed ON runs (testbed, started_at)",
                """
                CREATE TABLE trials (
                    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
                    suite TEXT NOT NULL,
                    workload TEXT NOT NULL,
                    scheduler TEXT NOT NULL,
                    strategy TEXT NOT NULL,
                    producers BIGINT NOT NULL,
                    events BIGINT NOT NULL,
                    payload_bytes BIGINT NOT NULL,
                    rate_hz BIGINT NOT NULL,
                    trial BIGINT NOT NULL,
                    metric TEXT NOT NULL,
                    value DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (run_id, workload, scheduler, strategy, producers, events, payload_bytes, rate_hz, trial, metric)
                )
                """,
                "CREATE INDEX trials_by_case ON trials (workload, scheduler, strategy, producers, events, payload_bytes, rate_hz, metric)",
            ]),
        // Dispatch became an axis of schedule.throughput on the serial and concurrent
        // schedulers: their earlier cases ran the default dispatch under strategy `none`
        // (`StrategyName.current`, which reads older results files the same way).
        Migration(
            identifier: "v2",
            statements: [
                """
                UPDATE trials SET strategy = 'perAction'
                WHERE workload = 'schedule.throughput' AND scheduler IN ('serial', 'concurrent') AND strategy = 'none'
                """
            ]),
    ]

    /// The table that records applied migrations, in both backends.
    static let migrationsTable = "schedbench_migrations"
    /// Where SQLite histories made before `schedbench_migrations` recorded theirs (GRDB's
    /// migrator): read, adopted into `schedbench_migrations` and dropped, in the transaction
    /// that migrates such a file; from then on it has one migrations table like every other
    /// history.
    static let legacyMigrationsTable = "grdb_migrations"

    /// What a database records of its migrations, once it has been checked to be a
    /// history (or empty) of a schema this build knows.
    struct State {
        /// Listed in `schedbench_migrations` (nil: no such table yet).
        var recorded: Set<String>?
        /// Listed in `grdb_migrations` (nil: no such table).
        var legacy: Set<String>?

        var applied: Set<String> { (recorded ?? []).union(legacy ?? []) }
        /// Whether every migration this build knows has been applied and recorded in
        /// `schedbench_migrations`, and no legacy table is left to adopt.
        var isCurrent: Bool { legacy == nil && Set(migrations.map(\.identifier)).isSubset(of: recorded ?? []) }
    }

    /// Reads what `connection` records, and throws, changing nothing, for a database that
    /// is foreign (it has history tables but no history marker, or, with
    /// `foreignIfOtherTables` — a SQLite file, which is the history's alone — any table of
    /// its own without the marker) or of a newer schema. `tables` are the tables it holds.
    static func inspect(_ connection: any SQLConnection, tables: Set<String>, foreignIfOtherTables: Bool, at location: String) throws -> State {
        let bookkeeping: Set<String> = [migrationsTable, legacyMigrationsTable]
        let format =
            tables.contains("schedbench_history")
            ? try connection.query("SELECT value FROM schedbench_history WHERE key = ?", [.text(formatKey)]).first?.first?.text : nil
        let claimed = foreignIfOtherTables ? tables.subtracting(bookkeeping) : tables.intersection(Self.tables)
        if !claimed.isEmpty && format != formatValue {
            let what = foreignIfOtherTables ? "a database that is not a schedbench history" : "tables named like a history's but is not a schedbench history"
            throw BenchError.history(
                location: location, problem: "holds \(what) (tables: \(claimed.sorted().joined(separator: ", "))); nothing was changed")
        }
        func identifiers(_ table: String) throws -> Set<String>? {
            guard tables.contains(table) else { return nil }
            return Set(try connection.query("SELECT identifier FROM \(table)", []).compactMap { $0.first?.text })
        }
        let state = State(recorded: try identifiers(migrationsTable), legacy: try identifiers(legacyMigrationsTable))
        try refuseNewer(applied: state.applied, at: location)
        return state
    }

    /// Brings the schema up to date inside the caller's transaction, which must hold the
    /// database's write lock from its start (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: an
    /// advisory lock), so that processes opening a new history at once create it once: the
    /// second finds what the first created instead of failing on "table already exists".
    /// Checks as `inspect` does first. Applied migrations are recorded in
    /// `schedbench_migrations`; a legacy `grdb_migrations` is adopted into it and dropped.
    static func migrate(_ connection: any SQLConnection, tables: Set<String>, foreignIfOtherTables: Bool, at location: String) throws {
        let state = try inspect(connection, tables: tables, foreignIfOtherTables: foreignIfOtherTables, at: location)
        guard !state.isCurrent else { return }
        if state.recorded == nil {
            try connection.execute("CREATE TABLE \(migrationsTable) (identifier TEXT PRIMARY KEY)", [])
        }
        for migration in migrations {
            if !state.applied.contains(migration.identifier) {
                for statement in migration.statements { try connection.execute(statement, []) }
            }
            if !(state.recorded ?? []).contains(migration.identifier) {
                try connection.execute("INSERT INTO \(migrationsTable) (identifier) VALUES (?)", [.text(migration.identifier)])
            }
        }
        if state.legacy != nil { try connection.execute("DROP TABLE \(legacyMigrationsTable)", []) }
    }

    /// The newest schema this build knows.
    package static var currentVersion: String { migrations.last!.identifier }

    /// Throws when `applied` (the migrations a database records) holds one this build does
    /// not know: a newer schedbench wrote it, and this one must not touch it.
    static func refuseNewer(applied: Set<String>, at location: String) throws {
        let unknown = applied.subtracting(migrations.map(\.identifier))
        guard unknown.isEmpty else {
            throw BenchError.history(
                location: location,
                problem: "was written by a newer schedbench (schema \(unknown.sorted().joined(separator: ", "))); "
                    + "this one knows up to \(currentVersion); nothing was changed")
        }
    }
}
