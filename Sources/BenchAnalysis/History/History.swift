import BenchChild
import BenchModel
import Foundation

/// Runs kept over time, in SQLite (`results/history.sqlite` by default) or PostgreSQL: what
/// `schedbench history` and `compare --history` read and write.
///
/// A run is stored whole (its provenance and every trial's metrics, as in results.csv) and
/// once: adding a run whose id is already stored changes nothing. Runs compare only with
/// runs of the same testbed (`Provenance.testbed`: CPU, cores, kernel, Swift, build,
/// governor, CPU limit), so a fleet can share one database and each runner is judged against
/// its own kind of machine.
///
/// Not thread-safe: use one `History` from one thread at a time.
package final class History {
    package let location: HistoryLocation
    private let database: any SQLDatabase

    /// Opens the history at `location` and brings its schema up to date. With `create`, a
    /// missing SQLite file is created; without it, a missing file is an error (reading
    /// commands must not leave empty histories behind). Throws `BenchError.history` for a database
    /// that is not a history, is of a newer schema, or cannot be reached.
    package init(_ location: HistoryLocation, create: Bool) throws {
        self.location = location
        switch location {
        case .sqlite(let path):
            database = try SQLiteDatabase(path: path, create: create)
        case .postgres(let address):
            #if PostgreSQL
            database = try PostgresDatabase(address: address)
            #else
            _ = address
            throw BenchError.history(
                location: location.description,
                problem: "this schedbench was built without PostgreSQL support; build it with `swift build -c release --traits PostgreSQL`")
            #endif
        }
    }

    deinit { database.close() }

    /// Checks, before a long run, that a run could be added to `location` when it ends: an
    /// existing history opens (it is a history, of a schema this build knows; a server
    /// answers) and its file can be written; where no SQLite file exists yet, its directory
    /// can be made and a file written in it. Leaves nothing behind.
    package static func checkWritable(_ location: HistoryLocation) throws {
        switch location {
        case .sqlite(let path):
            if FileManager.default.fileExists(atPath: path) {
                _ = try History(location, create: false)
                if let reason = SQLiteDatabase.unwritableReason(path) { throw BenchError.history(location: path, problem: reason) }
                return
            }
            if let reason = SQLiteDatabase.nameTooLong(path) { throw BenchError.history(location: path, problem: reason) }
            // Make what `add` would make, write a probe beside the file, and take it all away again.
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            var missing: [URL] = []
            var ancestor = directory
            while !FileManager.default.fileExists(atPath: ancestor.path) && ancestor.path != "/" {
                missing.append(ancestor)
                ancestor.deleteLastPathComponent()
            }
            defer { for made in missing { try? FileManager.default.removeItem(at: made) } }
            do {
                try ResultsFiles.createWritable(directory)
            } catch {
                throw BenchError.history(location: path, problem: "cannot be created: \(FileProblem.describe(error, at: URL(fileURLWithPath: path)))")
            }
        case .postgres:
            _ = try History(location, create: true)
        }
    }

    /// The longest run id a history stores (`schedbench run` makes ids of 22 characters).
    static let longestRunID = 200

    // MARK: Adding

    package enum AddOutcome: Equatable, Sendable {
        /// Stored: this many cases and values (case × trial × metric).
        case added(cases: Int, values: Int)
        /// A run with this id was already stored; nothing changed.
        case alreadyStored
    }

    /// Stores a run (as `ResultsFiles.read` returns it) in one transaction: all of it or,
    /// when anything fails, nothing.
    package func add(_ cases: [CaseResult], provenance: Provenance) throws -> AddOutcome {
        guard !cases.isEmpty else { throw BenchError.history(location: location.description, problem: "run \(provenance.runID) has no cases to add") }
        guard provenance.runID.count <= Self.longestRunID else {
            throw BenchError.history(
                location: location.description,
                problem: "a run id of \(provenance.runID.count) characters (\(provenance.runID.prefix(24))…) is longer than the \(Self.longestRunID) a history keeps; nothing was added")
        }
        let values = cases.reduce(0) { $0 + $1.trials.reduce(0) { $0 + $1.metrics.count } }
        return try database.transaction { connection in
            if !(try connection.query("SELECT 1 FROM runs WHERE run_id = ?", [.text(provenance.runID)]).isEmpty) {
                return .alreadyStored
            }
            let suites = Array(Set(cases.map(\.benchCase.suite))).sorted().joined(separator: ",")
            let run: [SQLValue] =
                [
                    .text(provenance.runID), .text(provenance.timestamp), .text(provenance.host), .text(provenance.cpu),
                    .integer(Int64(provenance.cores)), .text(provenance.os), .text(provenance.swift), .text(provenance.commit),
                    .text(provenance.build), .text(provenance.kernel), .text(provenance.governor), .text(provenance.cpuLimit),
                    .text(provenance.loadAverage), .text(provenance.testbedKey), .text(suites), .integer(Int64(cases.count)),
                    .text(Self.now()),
                ]
            try connection.insert(into: "runs", columns: Self.runColumns, rows: [run])
            var rows: [[SQLValue]] = []
            rows.reserveCapacity(values)
            for result in cases {
                let caseValues = Self.caseValues(result.benchCase)
                for record in result.trials {
                    for (metric, value) in record.metrics.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                        rows.append(
                            [.text(provenance.runID), .text(result.benchCase.suite)] + caseValues
                                + [.integer(Int64(record.trial)), .text(metric.rawValue), .real(value)])
                    }
                }
            }
            try connection.insert(
                into: "trials", columns: ["run_id"] + HistorySchema.caseColumns + ["trial", "metric", "value"], rows: rows)
            return .added(cases: cases.count, values: values)
        }
    }

    private static let runColumns = [
        "run_id", "started_at", "host", "cpu", "cores", "os", "swift", "commit_id", "build", "kernel", "governor", "cpu_limit", "load_avg",
        "testbed", "suite", "cases", "added_at",
    ]

    /// The case columns after `suite`, as bound values (workload … rate_hz).
    private static func caseValues(_ benchCase: BenchCase) -> [SQLValue] {
        [
            .text(benchCase.workload.rawValue), .text(benchCase.scheduler.rawValue), .text(benchCase.strategy.rawValue),
            .integer(Int64(benchCase.producers)), .integer(Int64(benchCase.events)), .integer(Int64(benchCase.payloadBytes)),
            .integer(Int64(benchCase.rateHz)),
        ]
    }

    /// "workload = ? AND … AND rate_hz = ?" for `caseValues`, on the columns of `table`.
    private static func caseCondition(_ table: String) -> String {
        HistorySchema.caseColumns.dropFirst().map { "\(table).\($0) = ?" }.joined(separator: " AND ")
    }

    private static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }

    // MARK: Listing

    /// A stored run, as `history list` shows it.
    package struct StoredRun: Equatable, Sendable {
        package var runID: String
        package var startedAt: String
        package var commit: String
        package var suite: String
        package var host: String
        package var testbed: String
        package var cases: Int
    }

    /// The stored runs, oldest first (the newest `limit` when given).
    package func runs(limit: Int? = nil) throws -> [StoredRun] {
        try database.transaction { connection in
            var sql = "SELECT run_id, started_at, commit_id, suite, host, testbed, cases FROM runs ORDER BY started_at DESC, run_id DESC"
            var arguments: [SQLValue] = []
            if let limit {
                sql += " LIMIT ?"
                arguments.append(.integer(Int64(limit)))
            }
            return try connection.query(sql, arguments).reversed().map { row in
                StoredRun(
                    runID: row[0].text ?? "", startedAt: row[1].text ?? "", commit: row[2].text ?? "", suite: row[3].text ?? "",
                    host: row[4].text ?? "", testbed: row[5].text ?? "", cases: Int(row[6].integer ?? 0))
            }
        }
    }

    // MARK: Trends

    /// One case's metric over the stored runs of one testbed.
    package struct TrendSeries: Equatable, Sendable {
        /// The case (`suite` empty: runs of any suite count).
        package var benchCase: BenchCase
        package var testbed: String
        /// Oldest first.
        package var points: [TrendPoint]
    }

    package struct TrendPoint: Equatable, Sendable {
        package var runID: String
        package var startedAt: String
        package var commit: String
        /// The median over the run's trials (the worst trial for correctness metrics).
        package var value: Double
        package var trials: Int
    }

    /// `metric` of every stored case of `workload` (narrowed to `scheduler` and `strategy`
    /// when given), one series per case and testbed, runs oldest first.
    package func trend(workload: WorkloadName, metric: Metric, scheduler: SchedulerName? = nil, strategy: StrategyName? = nil) throws
        -> [TrendSeries]
    {
        var sql = """
            SELECT r.run_id, r.started_at, r.commit_id, r.testbed, t.scheduler, t.strategy, t.producers, t.events, t.payload_bytes,
                t.rate_hz, t.value
            FROM trials t JOIN runs r ON r.run_id = t.run_id
            WHERE t.workload = ? AND t.metric = ?
            """
        var arguments: [SQLValue] = [.text(workload.rawValue), .text(metric.rawValue)]
        if let scheduler {
            sql += " AND t.scheduler = ?"
            arguments.append(.text(scheduler.rawValue))
        }
        if let strategy {
            sql += " AND t.strategy = ?"
            arguments.append(.text(strategy.rawValue))
        }
        sql += " ORDER BY r.started_at, r.run_id"
        let rows = try database.transaction { try $0.query(sql, arguments) }

        struct SeriesKey: Hashable {
            var benchCase: BenchCase
            var testbed: String
        }
        var order: [SeriesKey] = []
        var runsBySeries: [SeriesKey: [(runID: String, startedAt: String, commit: String, values: [Double])]] = [:]
        for row in rows {
            guard let scheduler = row[4].text.flatMap(SchedulerName.init(rawValue:)),
                let strategy = row[5].text.flatMap(StrategyName.init(rawValue:)), let value = row[10].real
            else { continue }  // A name this build does not know (a newer or older schedbench stored it).
            let benchCase = BenchCase(
                suite: "", workload: workload, scheduler: scheduler, strategy: strategy, producers: Int(row[6].integer ?? 0),
                events: Int(row[7].integer ?? 0), payloadBytes: Int(row[8].integer ?? 0), rateHz: Int(row[9].integer ?? 0))
            let key = SeriesKey(benchCase: benchCase, testbed: row[3].text ?? "")
            let runID = row[0].text ?? ""
            if runsBySeries[key] == nil { order.append(key) }
            if runsBySeries[key]?.last?.runID == runID {
                runsBySeries[key]![runsBySeries[key]!.count - 1].values.append(value)
            } else {
                runsBySeries[key, default: []].append((runID, row[1].text ?? "", row[2].text ?? "", [value]))
            }
        }
        return order.map { key in
            TrendSeries(
                benchCase: key.benchCase, testbed: key.testbed,
                points: runsBySeries[key]!.map { run in
                    TrendPoint(
                        runID: run.runID, startedAt: run.startedAt, commit: run.commit,
                        value: metric.isCorrectness ? run.values.max()! : Statistics.median(run.values)!, trials: run.values.count)
                })
        }
    }

    // MARK: Windows

    /// For each of `cases`, up to `size` stored runs that measured it on `provenance`'s
    /// testbed before `provenance`'s run started (never that run itself), oldest first: the
    /// window `compare --history` judges the run against. A run whose testbed is not fully
    /// recorded has no comparable runs.
    package func window(for provenance: Provenance, cases: [BenchCase], size: Int) throws -> [BenchCase: [CaseResult]] {
        guard provenance.testbedIsRecorded, size > 0 else { return [:] }
        return try database.transaction { connection in
            var windows: [BenchCase: [CaseResult]] = [:]
            for benchCase in cases {
                let caseValues = Self.caseValues(benchCase)
                let runIDs = try connection.query(
                    """
                    SELECT r.run_id FROM runs r
                    WHERE r.testbed = ? AND r.run_id <> ? AND r.started_at < ?
                        AND EXISTS (SELECT 1 FROM trials t WHERE t.run_id = r.run_id AND \(Self.caseCondition("t")))
                    ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?
                    """,
                    [.text(provenance.testbedKey), .text(provenance.runID), .text(provenance.timestamp)] + caseValues + [.integer(Int64(size))]
                ).compactMap { $0.first?.text }
                guard !runIDs.isEmpty else { continue }
                let rows = try connection.query(
                    """
                    SELECT t.run_id, t.trial, t.metric, t.value FROM trials t
                    WHERE t.run_id IN (\(Array(repeating: "?", count: runIDs.count).joined(separator: ", "))) AND \(Self.caseCondition("t"))
                    """,
                    runIDs.map { .text($0) } + caseValues)
                var metricsByRun: [String: [Int: [Metric: Double]]] = [:]
                for row in rows {
                    guard let runID = row[0].text, let trial = row[1].integer, let metric = row[2].text.flatMap(Metric.init(rawValue:)),
                        let value = row[3].real
                    else { continue }
                    metricsByRun[runID, default: [:]][Int(trial), default: [:]][metric] = value
                }
                windows[benchCase] = runIDs.reversed().compactMap { runID in
                    guard let trials = metricsByRun[runID] else { return nil }
                    return CaseResult(
                        benchCase: benchCase,
                        trials: trials.keys.sorted().map { TrialRecord(benchCase: benchCase, trial: $0, metrics: trials[$0]!) })
                }
            }
            return windows
        }
    }
}
