import Foundation
import GRDB

/// A history in a SQLite file, through GRDB. The schema is created and upgraded by GRDB's
/// `DatabaseMigrator` from `HistorySchema.migrations`.
///
/// Opening checks before it changes anything: a file that is not a SQLite database, a
/// database that holds other tables and no history marker, and a history written by a newer
/// schedbench (a migration this build does not know) are errors, and the file is left as it
/// was. Concurrent writers (two runs adding at once) wait for each other up to 30 s.
final class SQLiteDatabase: SQLDatabase {
    private let queue: DatabaseQueue
    private let path: String

    /// Opens the history at `path`, creating the file (and its directory) when `create` is
    /// true and it does not exist, and migrates it to the current schema.
    init(path: String, create: Bool) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw BenchError.history(location: path, problem: "is a directory, not a history file") }
        } else {
            guard create else {
                throw BenchError.history(
                    location: path, problem: "no history here yet (`schedbench history add` or `schedbench run --history` creates it)")
            }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw BenchError.history(location: path, problem: "cannot create its directory: \(error.localizedDescription)")
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw BenchError.history(location: path, problem: Self.describe(error))
        }
        try migrate()
    }

    private func migrate() throws {
        var migrator = DatabaseMigrator()
        for migration in HistorySchema.migrations {
            migrator.registerMigration(migration.identifier) { db in
                for statement in migration.statements { try db.execute(sql: statement) }
            }
        }
        do {
            let (tables, applied, format) = try queue.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                let applied = tables.contains("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
                let format =
                    tables.contains("schedbench_history")
                    ? try String.fetchOne(db, sql: "SELECT value FROM schedbench_history WHERE key = ?", arguments: [HistorySchema.formatKey]) : nil
                return (tables, applied, format)
            }
            let user = tables.filter { $0 != "grdb_migrations" }
            if !user.isEmpty && format != HistorySchema.formatValue {
                throw BenchError.history(
                    location: path,
                    problem:
                        "holds a database that is not a schedbench history (tables: \(user.sorted().joined(separator: ", "))); nothing was changed")
            }
            try HistorySchema.refuseNewer(applied: applied, at: path)
            try migrator.migrate(queue)
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError.history(location: path, problem: Self.describe(error))
        }
    }

    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        do {
            return try queue.write { db in try body(Connection(db: db)) }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError.history(location: path, problem: Self.describe(error))
        }
    }

    func close() {
        try? queue.close()
    }

    /// GRDB's error in words: "is not a SQLite database" for a file of something else.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "is not a SQLite database; nothing was changed"
        case .SQLITE_CORRUPT: return "is a corrupted SQLite database (\(error.message ?? "malformed")); nothing was changed"
        case .SQLITE_BUSY: return "is locked by another writer (waited 30 s)"
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return "cannot be opened for writing (\(error.message ?? "\(error.resultCode)"))"
        default: return error.message ?? "\(error)"
        }
    }

    private struct Connection: SQLConnection {
        let db: Database

        func execute(_ sql: String, _ arguments: [SQLValue]) throws {
            try db.execute(sql: sql, arguments: StatementArguments(arguments.map(Self.databaseValue)))
        }

        func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(Self.databaseValue))).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: return .null
                    case .int64(let number): return .integer(number)
                    case .double(let number): return .real(number)
                    case .string(let text): return .text(text)
                    case .blob(let data): return .text(String(decoding: data, as: UTF8.self))
                    }
                }
            }
        }

        private static func databaseValue(_ value: SQLValue) -> DatabaseValue {
            switch value {
            case .integer(let number): return number.databaseValue
            case .real(let number): return number.databaseValue
            case .text(let text): return text.databaseValue
            case .null: return .null
            }
        }
    }
}
