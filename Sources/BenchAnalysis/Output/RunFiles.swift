import BenchModel
import Foundation

/// The files of a run in progress, rewritten after every case so that whatever ends the
/// run (an interrupt, a crash of the measuring executable, a failing case) leaves on disk
/// what finished: results, summary and violations (`ResultsFiles`), `run-status.json`
/// (how much of the plan that is), and each latency case's distribution. An earlier run's
/// distributions in the directory go when this run writes its first case.
package struct RunFiles: Sendable {
    package var directory: URL
    package var provenance: Provenance
    /// The cases the run set out to measure.
    package var planned: Int

    package init(directory: URL, provenance: Provenance, planned: Int) {
        self.directory = directory
        self.provenance = provenance
        self.planned = planned
    }

    /// Writes `results`, every finished case so far, after `latest` finished.
    package func write(_ results: [CaseResult], latest: CaseResult?) throws {
        try ResultsFiles.write(results, provenance: provenance, to: directory)
        try RunStatus(planned: planned, finished: results.count).write(to: directory)
        if results.count == 1 { LatencyFiles.removeAll(in: directory) }
        if let latest { try LatencyFiles.write(latest, in: directory) }
    }

    /// Writes a run in several processes after `finished` of its `processes` ran every
    /// case: `results`, one trial per process, and each case's latencies over them all.
    package func write(_ results: [CaseResult], processes: Int, finished: Int) throws {
        try ResultsFiles.write(results, provenance: provenance, to: directory)
        try RunStatus(planned: planned, finished: results.count, processes: processes, processesFinished: finished).write(to: directory)
        if finished == 1 { LatencyFiles.removeAll(in: directory) }
        for result in results { try LatencyFiles.write(result, in: directory) }
    }
}
