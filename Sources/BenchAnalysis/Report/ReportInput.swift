import BenchChild
import BenchModel
import Foundation

/// A run as a report reads it: its cases and provenance (`results.csv`) and its latency
/// distributions (`latency/*.hgrm`), from a results directory.
package struct ReportInput: Sendable {
    package var path: String
    package var cases: [CaseResult]
    package var provenance: Provenance?
    /// Each latency case's distribution, when its `.hgrm` file is there.
    package var latency: [BenchCase: [LatencyFiles.Percentile]]
    /// How much of the run the results hold (`run-status.json`), when it says.
    package var status: RunStatus?

    package init(
        path: String, cases: [CaseResult], provenance: Provenance?, latency: [BenchCase: [LatencyFiles.Percentile]] = [:], status: RunStatus? = nil
    ) {
        self.path = path
        self.cases = cases
        self.provenance = provenance
        self.latency = latency
        self.status = status
    }

    /// Reads a results directory (or its `results.csv`; distributions come from the
    /// directory beside it). Throws `BenchError.unreadable` naming the file and the row.
    package static func read(_ path: String) throws -> ReportInput {
        let (cases, provenance) = try ResultsFiles.read(path)
        var directory = URL(fileURLWithPath: path)
        if directory.lastPathComponent == ResultsFiles.resultsName { directory.deleteLastPathComponent() }
        let files = try LatencyFiles.readAll(in: directory)
        var latency: [BenchCase: [LatencyFiles.Percentile]] = [:]
        for result in cases {
            if let distribution = files[LatencyFiles.fileName(result.benchCase)] { latency[result.benchCase] = distribution }
        }
        return ReportInput(path: path, cases: cases, provenance: provenance, latency: latency, status: try RunStatus.read(in: directory))
    }
}
