import Foundation

/// Where a history lives: a SQLite file (the default, `results/history.sqlite`) or a
/// PostgreSQL database (`postgres://user[:password]@host[:port]/database[?sslmode=…]`), as
/// `--db` names it.
public enum HistoryLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    public static let defaultPath = "results/history.sqlite"

    /// A PostgreSQL server and database. The password comes from the URL or, as with libpq,
    /// from `PGPASSWORD`.
    public struct PostgresAddress: Sendable, Equatable {
        public enum TLSMode: String, Sendable, CaseIterable {
            /// Plain TCP (loopback, a tunnel).
            case disable
            /// TLS when the server offers it (libpq's default).
            case prefer
            /// TLS or no connection; the server's certificate is verified.
            case require
        }

        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
    }

    /// Reads a `--db` value: a URL with scheme `postgres` or `postgresql`, else a file path.
    /// Throws `BenchError.history` for a PostgreSQL URL that lacks a host, a user or a database,
    /// or has an unknown `sslmode`.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw BenchError.history(location: "''", problem: "names no file")
            }
            self = .sqlite(path: text)
            return
        }
        func fail(_ problem: String) -> BenchError {
            BenchError.history(
                location: Self.redacted(text),
                problem: "\(problem) (expected postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require])")
        }
        guard let url = URLComponents(string: text) else { throw fail("is not a URL") }
        guard let host = url.host, !host.isEmpty else { throw fail("names no host") }
        guard let user = url.user, !user.isEmpty else { throw fail("names no user") }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw fail("names no database") }
        var tls = PostgresAddress.TLSMode.prefer
        for item in url.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(PostgresAddress.TLSMode.init(rawValue:)) else {
                    throw fail("sslmode '\(item.value ?? "")' is not one of disable, prefer, require")
                }
                tls = mode
            default:
                throw fail("unknown parameter '\(item.name)'")
            }
        }
        self = .postgres(
            PostgresAddress(
                host: host, port: url.port ?? 5432, user: user.removingPercentEncoding ?? user,
                password: url.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"],
                database: database.removingPercentEncoding ?? database, tls: tls))
    }

    /// The location for messages: a path, or a URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let address): return "postgres://\(address.user)@\(address.host):\(address.port)/\(address.database)"
        }
    }

    /// `text` with any password in it replaced, for messages about a URL that did not parse.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound, schemeEnd < at else { return text }
        let credentials = text[schemeEnd..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
