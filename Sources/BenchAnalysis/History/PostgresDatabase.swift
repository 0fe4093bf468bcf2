#if PostgreSQL
import BenchChild
import BenchModel
import Foundation
import PostgresNIO
import Synchronization

/// A history in PostgreSQL, shared by many runners, through postgres-nio (built with the
/// `PostgreSQL` trait). The schema is the same as in SQLite, brought up to date by the same
/// `HistorySchema.migrate`; applied migrations are recorded in `schedbench_migrations`.
/// Migrating holds a transaction-scoped advisory lock, so runners starting at once upgrade the
/// schema once. A database that has a `runs` or `trials` table but no history marker, and a
/// history of a newer schema, are errors and are left alone.
///
/// One connection, used from one thread at a time: each call blocks until the server
/// answers (the CLI is synchronous; the history's work is a few statements per command),
/// for `answerSeconds` at most. A server that stops answering, or a connection that
/// closes, is an error naming the server, and the connection is then dead: every later
/// statement fails at once, so a transaction's rollback cannot wait again. The
/// transaction was not committed, so nothing of it is stored.
final class PostgresDatabase: SQLDatabase {
    private let connection: PostgresConnection
    private let location: String
    private let logger: Logger
    private let liveness = Liveness()

    /// How long one statement (or the connection's setup) may wait for the server.
    static let answerSeconds: Double = 15

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
        let (location, connectionLogger) = (self.location, logger)
        do {
            connection = try Blocking.wait(seconds: Self.answerSeconds) {
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: connectionLogger)
            }
        } catch {
            throw BenchError.history(location: location, problem: "cannot connect: \(Self.describe(error, address: address))")
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
                    (HistorySchema.tables + [HistorySchema.migrationsTable]).map { .text($0) }
                ).compactMap { $0.first?.text })
            try HistorySchema.migrate(connection, tables: tables, foreignIfOtherTables: false, at: location)
        }
    }

    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let statements = Statements(connection: connection, logger: logger, location: location, liveness: liveness)
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
        guard liveness.isAlive else {
            // Nothing to say goodbye to: close the socket without waiting for the server.
            connection.close().whenComplete { _ in }
            return
        }
        try? Blocking.wait(seconds: Self.answerSeconds, closed: connection.closeFuture) { try await connection.close() }
    }

    /// What went wrong, in words that say what to do: the server's own message when there
    /// is one (postgres-nio's description hides it), else the connection's problem.
    static func describe(_ error: any Error, address: HistoryLocation.PostgresAddress? = nil) -> String {
        let server = address.map { "\($0.host):\($0.port)" } ?? "the server"
        switch error {
        case Blocking.Abandoned.timedOut(let seconds):
            return "\(server) did not answer within \(Int(seconds)) s (is it running and reachable?)"
        case Blocking.Abandoned.connectionClosed:
            return "\(server) closed the connection"
        default: break
        }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return "the server asks for a password: give it in the URL (postgres://user:password@…) or in PGPASSWORD"
        case .sslUnsupported:
            return "the server does not offer TLS, which sslmode=require demands: add ?sslmode=disable or ?sslmode=prefer to the URL"
        case .serverClosedConnection, .uncleanShutdown:
            return "\(server) closed the connection"
        default: break
        }
        let underlying = error.underlying.map { "\($0)" } ?? ""
        if underlying.contains("Connection refused") {
            return "nothing listens at \(server) (connection refused): is the server running, and on this port?"
        }
        if underlying.contains("UnknownHost") || underlying.contains("unknown host") {
            return "cannot resolve the host '\(address?.host ?? "?")'"
        }
        if underlying.lowercased().contains("timeout") || underlying.contains("timed out") {
            return "\(server) did not accept the connection in time (is it running and reachable?)"
        }
        return underlying.isEmpty ? "\(error.code)" : "\(error.code): \(underlying)"
    }

    /// Whether the connection can still be used: false once a statement waited past its
    /// deadline or saw the connection close.
    private final class Liveness: Sendable {
        private let alive = Atomic<Bool>(true)
        var isAlive: Bool { alive.load(ordering: .acquiring) }
        func markDead() { alive.store(false, ordering: .releasing) }
    }

    private struct Statements: SQLConnection {
        let connection: PostgresConnection
        let logger: Logger
        let location: String
        let liveness: Liveness

        func execute(_ sql: String, _ arguments: [SQLValue]) throws {
            _ = try query(sql, arguments)
        }

        func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
            let query = PostgresQuery(unsafeSQL: Self.numberingPlaceholders(sql), binds: Self.bindings(arguments))
            let (connection, logger) = (connection, logger)
            guard liveness.isAlive else {
                throw BenchError.history(location: location, problem: "the connection to the server was lost earlier; nothing more was sent")
            }
            do {
                return try Blocking.wait(seconds: PostgresDatabase.answerSeconds, closed: connection.closeFuture) {
                    var rows: [[SQLValue]] = []
                    for try await row in try await connection.query(query, logger: logger) {
                        rows.append(try row.map(Self.value))
                    }
                    return rows
                }
            } catch {
                if error is Blocking.Abandoned { liveness.markDead() }
                if let error = error as? PSQLError, [.serverClosedConnection, .uncleanShutdown].contains(error.code) { liveness.markDead() }
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
