import BenchChild
import BenchModel
import Foundation

/// Where a history lives: a SQLite file (the default, `results/history.sqlite`) or a
/// PostgreSQL database (`postgres://user[:password]@host[:port]/database[?sslmode=…]`), as
/// `--db` names it.
package enum HistoryLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    package static let defaultPath = "results/history.sqlite"

    /// A PostgreSQL server and database. The password comes from the URL or, as with libpq,
    /// from `PGPASSWORD`.
    package struct PostgresAddress: Sendable, Equatable {
        package enum TLSMode: String, Sendable, CaseIterable {
            /// Plain TCP (loopback, a tunnel).
            case disable
            /// TLS when the server offers it (libpq's default).
            case prefer
            /// TLS or no connection; the server's certificate is verified.
            case require
        }

        package var host: String
        package var port: Int
        package var user: String
        package var password: String?
        package var database: String
        package var tls: TLSMode
    }

    /// Reads a `--db` value: a URL with scheme `postgres` or `postgresql` (in any case, as
    /// URL schemes are), else a file path. Throws `BenchError.history` for any other URL
    /// scheme (`mysql://…` is not taken for a file name), and for a PostgreSQL URL that
    /// lacks a host, a user or a database, has a port outside 1...65535 or an unknown
    /// `sslmode`. Messages never show the password.
    package init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let scheme = Self.scheme(of: text)
        guard let scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            if let scheme {
                throw BenchError.history(
                    location: Self.redacted(text),
                    problem: "has the URL scheme '\(scheme)', which is not a history: give a SQLite file path or postgres://user@host/database")
            }
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
        guard let url = URLComponents(string: "postgres" + text.dropFirst(scheme.count)) else { throw fail("is not a URL") }
        guard var host = url.host, !host.isEmpty else { throw fail("names no host") }
        // An IPv6 literal is written in brackets in a URL; the address itself has none.
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = url.port ?? 5432
        guard (1...65535).contains(port) else { throw fail("port \(port) is outside 1...65535") }
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
                host: host, port: port, user: user.removingPercentEncoding ?? user,
                password: url.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"],
                database: database.removingPercentEncoding ?? database, tls: tls))
    }

    /// The location for messages: a path, or a URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let address):
            let host = address.host.contains(":") ? "[\(address.host)]" : address.host
            return "postgres://\(address.user)@\(host):\(address.port)/\(address.database)"
        }
    }

    /// The URL scheme `text` starts with (letters, digits, `+`, `-`, `.` before `://`), if any.
    static func scheme(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// `text` with any password in it replaced, for messages about a URL that did not parse.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound, schemeEnd < at else { return text }
        let credentials = text[schemeEnd..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
