import BenchModel
import Foundation

/// `latency/<case>.hgrm` in a results directory: each latency case's distribution over all
/// its timed trials, as the percentile-distribution text HdrHistogram's
/// `outputPercentileDistribution` prints and its plotter reads (values in microseconds), so
/// runs can be overlaid in HdrHistogram's own tools. `<case>` is the case's export name
/// with `/` as `-` (`observeOn.latency-serial-drain-p1-n20000-rate10000.hgrm`).
package enum LatencyFiles {
    package static let directoryName = "latency"

    package static func fileName(_ benchCase: BenchCase) -> String {
        benchCase.benchmarkName.replacingOccurrences(of: "/", with: "-") + ".hgrm"
    }

    /// Writes `result`'s distribution, atomically, when it has one; returns the file.
    @discardableResult
    static func write(_ result: CaseResult, in directory: URL) throws -> URL? {
        guard let latency = result.latency, latency.count > 0 else { return nil }
        let folder = directory.appendingPathComponent(directoryName)
        let file = folder.appendingPathComponent(fileName(result.benchCase))
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            // Described at the file: a file named `latency` in the way is then named as such.
            throw BenchError.unwritable(path: file.path, problem: FileProblem.describe(error, at: file))
        }
        try AtomicFile.write(latency.percentileDistribution, to: file)
        return file
    }

    /// One line of a percentile distribution: the latency (microseconds) at a percentile
    /// (0–100).
    package struct Percentile: Equatable, Sendable {
        package var percentile: Double
        package var microseconds: Double
    }

    /// Reads an `.hgrm` file back: its rows, in order (HdrHistogram's `Value Percentile
    /// TotalCount 1/(1-Percentile)` columns; the header and `#[…]` footer lines skipped).
    /// The rows are steps: a percentile between two rows has a value between theirs.
    /// A row that is not numbers is an error naming the file and the line.
    package static func read(_ url: URL) throws -> [Percentile] {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw BenchError.unreadable(path: url.path, problem: FileProblem.describe(error, at: url))
        }
        var rows: [Percentile] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: " ")
            guard !fields.isEmpty, !line.hasPrefix("#"), fields[0] != "Value" else { continue }
            guard fields.count >= 3, let value = Double(fields[0]), let fraction = Double(fields[1]), value.isFinite, (0...1).contains(fraction),
                UInt64(fields[2]) != nil
            else {
                throw BenchError.unreadable(path: url.path, problem: "line \(index + 1) is not a percentile row: '\(line)'")
            }
            rows.append(Percentile(percentile: fraction * 100, microseconds: value))
        }
        return rows
    }

    /// The distributions of a results directory's latency cases, by file name.
    package static func readAll(in directory: URL) throws -> [String: [Percentile]] {
        let folder = directory.appendingPathComponent(directoryName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [:] }
        var distributions: [String: [Percentile]] = [:]
        for name in names where name.hasSuffix(".hgrm") {
            distributions[name] = try read(folder.appendingPathComponent(name))
        }
        return distributions
    }

    /// Removes an earlier run's distributions (before the first case of a run replacing it).
    package static func removeAll(in directory: URL) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(directoryName))
    }

    /// Copies `source`'s distributions into `directory` (`merge` of a run's shards), each
    /// atomically; returns how many.
    @discardableResult
    package static func copyAll(from source: URL, to directory: URL) throws -> Int {
        let folder = source.appendingPathComponent(directoryName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        let target = directory.appendingPathComponent(directoryName)
        var copied = 0
        for name in names.sorted() where name.hasSuffix(".hgrm") {
            let from = folder.appendingPathComponent(name)
            let to = target.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: from.path) else {
                throw BenchError.unreadable(path: from.path, problem: "cannot be read")
            }
            do { try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true) } catch {
                throw BenchError.unwritable(path: to.path, problem: FileProblem.describe(error, at: to))
            }
            try AtomicFile.write(data, to: to)
            copied += 1
        }
        return copied
    }
}
