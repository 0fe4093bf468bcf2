import BenchModel
import CSV
import Foundation

/// Writes and reads whole CSV files through CSV.swift (quoting, embedded commas and newlines).
package enum CSVFile {
    /// Renders `header` and `rows` as CSV text, each row ending in a line break (the last
    /// one too, as POSIX text files and `wc -l` expect).
    package static func render(header: [String], rows: [[String]]) throws -> Data {
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream)
        try writer.write(row: header)
        for row in rows {
            try writer.write(row: row)
        }
        writer.stream.close()
        guard var data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
            throw BenchError.unwritable(path: "<memory>", problem: "the CSV writer produced no data")
        }
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes the file atomically: readers see the old file or the new one, never half of one.
    package static func write(header: [String], rows: [[String]], to url: URL) throws {
        try AtomicFile.write(try render(header: header, rows: rows), to: url)
    }

    /// Reads a CSV file with a header row; each row as a column → value dictionary.
    package static func read(_ url: URL, requiring required: [String]) throws -> [[String: String]] {
        var rows: [[String: String]] = []
        try forEachRow(url, requiring: required) { row, _ in rows.append(row) }
        return rows
    }

    /// Reads a CSV file with a header row and hands `body` each row, as a column → value
    /// dictionary, with its line number (the header is line 1). Only one row's dictionary
    /// lives at a time: a reader that folds rows into its own structure keeps memory to
    /// the file's text and that structure.
    static func forEachRow(_ url: URL, requiring required: [String], _ body: ([String: String], _ line: Int) throws -> Void) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw BenchError.unreadable(path: url.path, problem: "cannot read: \(FileProblem.describe(error, at: url))")
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw BenchError.unreadable(path: url.path, problem: text.isEmpty ? "empty file, not a results file" : "not CSV: \(error)")
        }
        guard let header = reader.headerRow else { throw BenchError.unreadable(path: url.path, problem: "empty file") }
        let missing = required.filter { !header.contains($0) }
        guard missing.isEmpty else {
            throw BenchError.unreadable(path: url.path, problem: "missing columns \(missing.joined(separator: ", "))")
        }
        var line = 1
        while let fields = reader.next() {
            line += 1
            guard fields.count == header.count else {
                throw BenchError.unreadable(path: url.path, problem: "row \(line) has \(fields.count) fields, the header has \(header.count)")
            }
            try body(Dictionary(uniqueKeysWithValues: zip(header, fields)), line)
        }
    }
}
