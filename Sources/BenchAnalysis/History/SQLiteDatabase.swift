import BenchChild
import BenchModel
import Foundation
import GRDB

/// A history in a SQLite file, through GRDB. The schema is created and upgraded by
/// `HistorySchema.migrate`, as in PostgreSQL.
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
            throw BenchError.history(location: path, problem: Self.describe(error, path: path))
        }
        try migrate()
    }

    /// Checks the file, and migrates it when a migration is pending. The check reads only,
    /// so a read-only history of the current schema still opens for `list` and `compare`.
    /// Migrating is one `BEGIN IMMEDIATE` transaction, which takes the write lock before it
    /// looks again: processes creating a new history at once wait for each other (up to the
    /// busy timeout) and the later ones find the schema made.
    private func migrate() throws {
        func tables(_ db: Database) throws -> Set<String> {
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        }
        do {
            let current = try queue.read { db in
                try HistorySchema.inspect(Connection(db: db), tables: try tables(db), foreignIfOtherTables: true, at: path).isCurrent
            }
            guard !current else { return }
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try HistorySchema.migrate(Connection(db: db), tables: try tables(db), foreignIfOtherTables: true, at: path)
                    return .commit
                }
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError.history(location: path, problem: Self.describe(error, path: path))
        }
    }

    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        do {
            return try queue.write { db in try body(Connection(db: db)) }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError.history(location: path, problem: Self.describe(error, path: path))
        }
    }

    func close() {
        try? queue.close()
    }

    /// GRDB's error in words: "is not a SQLite database" for a file of something else; for
    /// a file that cannot be opened or written, which of the file, its name or its
    /// directory is the reason.
    static func describe(_ error: any Error, path: String? = nil) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "is not a SQLite database; nothing was changed"
        case .SQLITE_CORRUPT: return "is a corrupted SQLite database (\(error.message ?? "malformed")); nothing was changed"
        case .SQLITE_BUSY: return "is locked by another writer (waited 30 s)"
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            if let path, let reason = Self.unwritableReason(path) { return reason }
            return "cannot be opened for writing (\(error.message ?? "\(error.resultCode)"))"
        default: return error.message ?? "\(error)"
        }
    }

    /// Says so when `path`'s file name is longer than its directory's file system allows.
    static func nameTooLong(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let longest = Int(pathconf(url.deletingLastPathComponent().path, Int32(_PC_NAME_MAX)))
        guard longest > 0, name.utf8.count > longest else { return nil }
        return "cannot be created: its file name is \(name.utf8.count) bytes long, and this file system allows \(longest)"
    }

    /// Why `path` cannot be opened for writing, when the file system says: a name too long,
    /// a read-only file, or a directory SQLite cannot write its journal into.
    static func unwritableReason(_ path: String) -> String? {
        if let tooLong = nameTooLong(path) { return tooLong }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if FileManager.default.fileExists(atPath: path) && access(path, W_OK) != 0 {
            return "cannot be written: the file is read-only"
        }
        if access(directory, W_OK) != 0 {
            return "cannot be written: its directory \(directory) is not writable, and SQLite writes its journal there, beside the file"
        }
        return nil
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
