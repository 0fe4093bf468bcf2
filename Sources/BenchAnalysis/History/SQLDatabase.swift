import BenchChild
import BenchModel
/// A value bound to, or read from, a statement: the four types the history stores.
enum SQLValue: Equatable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// A number, whichever way the database returned it.
    var real: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}

/// The part of a database the history needs: statements with `?` placeholders, rows back as
/// values, and transactions. `History` holds the history's logic once, over this; a backend
/// (`SQLiteDatabase`, `PostgresDatabase`) only moves statements and values.
///
/// Statements use the SQL both backends share: `TEXT`, `BIGINT`, `DOUBLE PRECISION`,
/// composite primary keys, multi-row `VALUES`; nothing dialect-specific.
protocol SQLDatabase: AnyObject {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws,
    /// so a failed `add` leaves the history as it was.
    func transaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Releases the connection. Further use is a programming error.
    func close()
}

/// Statements inside a transaction.
protocol SQLConnection {
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]]
}

extension SQLConnection {
    /// Inserts `rows` into `table` with as few statements as the placeholders allow
    /// (multi-row `VALUES`, at most `maximumArguments` per statement).
    func insert(into table: String, columns: [String], rows: [[SQLValue]], maximumArguments: Int = 30_000) throws {
        guard !rows.isEmpty else { return }
        let perStatement = max(1, maximumArguments / columns.count)
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + perStatement)]
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: chunk.count).joined(separator: ", ")
            try execute(sql, chunk.flatMap { $0 })
            start += chunk.count
        }
    }
}
