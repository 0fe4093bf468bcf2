#if PostgreSQL
import Foundation
import PostgresNIO

/// A history in PostgreSQL, shared by many runners, through postgres-nio (built with the
/// `PostgreSQL` trait). The schema is the same as in SQLite, from the same
/// `HistorySchema.migrations`; applied migrations are recorded in `schedbench_migrations`.
/// Migrating holds a transaction-scoped advisory lock, so runners starting at once upgrade the
/// schema once. A database that has a `runs` or `trials` table but no history marker, and a
/// history of a newer schema, are errors and are left alone.
///
/// One connection, used from one thread at a time: each call blocks until the server
/// answers (the CLI is synchronous; the history's work is a few statements per command).
final class PostgresDatabase: SQLDatabase {
    private let connection: PostgresConnection
    private let location: String
    private let logger: Logger

    /// The advisory lock key migrations hold ("schedbnc" in ASCII).
    private static let migrationLock: Int64 = 0x7363_6865_6462_6E63

    /// Connects and, with `migrating` (always, but in tests that set up a database by hand),
    /// brings the schema up to date.
    init(address: HistoryLocation.PostgresAddress, migrating: Bool = true) throws {
        location = HistoryLocation.postgres(address).description
        var logger = Logger(label: "schedbench.history")
        logger.logLevel = .critical
        self.logger = logger
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch address.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw BenchError.history(location: location, problem: "cannot set up TLS: \(error)")
        }
        let configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password, database: address.database, tls: tls)
        let location = self.location
        do {
            connection = try Blocking.wait { try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger) }
        } catch {
            throw BenchError.history(location: location, problem: "cannot connect: \(Self.describe(error))")
        }
        guard migrating else { return }
        do {
            try migrate()
        } catch {
            close()
            throw error
        }
    }

    private func migrate() throws {
        try transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.migrationLock)])
            let tables = Set(
                try connection.query(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN (?, ?, ?, ?)",
                    (HistorySchema.tables + ["schedbench_migrations"]).map { .text($0) }
                ).compactMap { $0.first?.text })
            let format =
                tables.contains("schedbench_history")
                ? try connection.query("SELECT value FROM schedbench_history WHERE key = ?", [.text(HistorySchema.formatKey)]).first?.first?.text
                : nil
            if !tables.isDisjoint(with: ["runs", "trials"]) && format != HistorySchema.formatValue {
                throw BenchError.history(
                    location: location,
                    problem:
                        "holds tables named like a history's (\(tables.sorted().joined(separator: ", "))) but is not a schedbench history; nothing was changed"
                )
            }
            if !tables.contains("schedbench_migrations") {
                try connection.execute("CREATE TABLE schedbench_migrations (identifier TEXT PRIMARY KEY)", [])
            }
            let applied = Set(try connection.query("SELECT identifier FROM schedbench_migrations", []).compactMap { $0.first?.text })
            try HistorySchema.refuseNewer(applied: applied, at: location)
            for migration in HistorySchema.migrations where !applied.contains(migration.identifier) {
                for statement in migration.statements { try connection.execute(statement, []) }
                try connection.execute("INSERT INTO schedbench_migrations (identifier) VALUES (?)", [.text(migration.identifier)])
            }
        }
    }

    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let statements = Statements(connection: connection, logger: logger, location: location)
        try statements.execute("BEGIN", [])
        do {
            let result = try body(statements)
            try statements.execute("COMMIT", [])
            return result
        } catch {
            try? statements.execute("ROLLBACK", [])
            throw error
        }
    }

    func close() {
        let connection = connection
        try? Blocking.wait { try await connection.close() }
    }

    /// The server's own message when there is one (postgres-nio's description hides it).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    private struct Statements: SQLConnection {
        let connection: PostgresConnection
        let logger: Logger
        let location: String

        func execute(_ sql: String, _ arguments: [SQLValue]) throws {
            _ = try query(sql, arguments)
        }

        func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
            let query = PostgresQuery(unsafeSQL: Self.numberingPlaceholders(sql), binds: Self.bindings(arguments))
            let (connection, logger) = (connection, logger)
            do {
                return try Blocking.wait {
                    var rows: [[SQLValue]] = []
                    for try await row in try await connection.query(query, logger: logger) {
                        rows.append(try row.map(Self.value))
                    }
                    return rows
                }
            } catch {
                throw BenchError.history(location: location, problem: Self.describe(error))
            }
        }

        /// `?` → `$1`, `$2`, … (the history's statements have no `?` inside literals).
        static func numberingPlaceholders(_ sql: String) -> String {
            var result = ""
            var number = 0
            for character in sql {
                if character == "?" {
                    number += 1
                    result += "$\(number)"
                } else {
                    result.append(character)
                }
            }
            return result
        }

        static func bindings(_ arguments: [SQLValue]) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: arguments.count)
            for argument in arguments {
                switch argument {
                case .integer(let number): bindings.append(number)
                case .real(let number): bindings.append(number)
                case .text(let text): bindings.append(text)
                case .null: bindings.appendNull()
                }
            }
            return bindings
        }

        static func value(_ cell: PostgresCell) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8, .numeric: return .real(try cell.decode(Double.self))
            default: return .text(try cell.decode(String.self))
            }
        }

        static func describe(_ error: any Error) -> String { PostgresDatabase.describe(error) }
    }
}
#endif
