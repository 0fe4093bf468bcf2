/// The history's tables, as an ordered list of migrations: the same statements create and
/// upgrade the schema in SQLite (through GRDB's `DatabaseMigrator`, which records applied
/// migrations in `grdb_migrations`) and in PostgreSQL (`PostgresDatabase`, which records them
/// in `schedbench_migrations`). A migration, once released, never changes; a new schema
/// version is a new migration at the end.
///
/// Version 1:
/// - `schedbench_history(key, value)`: what this database is (`format` = `schedbench-history`),
///   so a database that holds something else is recognized and left alone;
/// - `runs`: one row per run, its provenance and `testbed` (the columns a measurement depends
///   on besides the code, in one text: runs compare only on an equal testbed);
/// - `trials`: one row per run × case × trial × metric, as in results.csv.
enum HistorySchema {
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
            ])
    ]

    /// The newest schema this build knows.
    static var currentVersion: String { migrations.last!.identifier }

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
