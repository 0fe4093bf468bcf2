import Foundation

/// `latency/<case>.hgrm` in a results directory: each latency case's distribution over all
/// its timed trials, as the percentile-distribution text HdrHistogram's
/// `outputPercentileDistribution` prints and its plotter reads (values in microseconds), so
/// runs can be overlaid in HdrHistogram's own tools. `<case>` is the case's export name
/// with `/` as `-` (`observeOn.latency-serial-drain-p1-n20000-rate10000.hgrm`).
public enum LatencyFiles {
    public static let directoryName = "latency"

    public static func fileName(_ benchCase: BenchCase) -> String {
        Export.benchmarkName(benchCase).replacingOccurrences(of: "/", with: "-") + ".hgrm"
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

    /// Removes an earlier run's distributions (before the first case of a run replacing it).
    static func removeAll(in directory: URL) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(directoryName))
    }
}
