import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// Storing finished runs in a history (`schedbench history add`).
package enum HistoryWorkflow {
    /// Reads and checks every run in `paths` (results directories or `results.csv` files)
    /// before the history is touched, so a bad one adds nothing; then adds them in order,
    /// calling `added` after each (a run already stored is left as it is). A run that
    /// cannot be read, that is one shard of a run (`run --shard`), whose run id is empty
    /// or holds a line break, or that has a
    /// case with a correctness failure (its figures describe a broken run, as `run
    /// --history` would not add it), throws `BenchError` before anything is added; a
    /// history that refuses a run throws too, and the runs added before it stay added.
    package static func add(
        runs paths: [String], to location: HistoryLocation, added: (_ runID: String, _ outcome: History.AddOutcome) -> Void
    ) throws {
        let read = try paths.map { path -> (cases: [CaseResult], provenance: Provenance) in
            var directory = URL(fileURLWithPath: path)
            if directory.lastPathComponent == ResultsFiles.resultsName { directory.deleteLastPathComponent() }
            if let shard = try ShardFile.read(in: directory) {
                throw BenchError.mismatched(
                    "\(path) is shard \(shard.shard) of a \(shard.kind.rawValue), not a whole run; `merge` its shards and add the merged run")
            }
            let (cases, provenance) = try ResultsFiles.read(path)
            guard let provenance, !cases.isEmpty else { throw BenchError.unreadable(path: path, problem: "holds no results") }
            let runID = provenance.runID
            // Other control characters are kept, and shown escaped wherever a run id is printed.
            if runID.trimmingCharacters(in: .whitespaces).isEmpty || runID.contains(where: \.isNewline) {
                throw BenchError.unreadable(path: path, problem: "its run id \(runID.debugDescription) is empty or holds a line break")
            }
            let failed = cases.filter { $0.correctnessFailures > 0 }
            if let first = failed.first {
                throw BenchError.unreadable(
                    path: path,
                    problem: "\(failed.count) of its cases failed their correctness checks (first: \(first.benchCase)); a broken run's figures are not kept")
            }
            return (cases, provenance)
        }
        let history = try History(location, create: true)
        for run in read {
            added(run.provenance.runID, try history.add(run.cases, provenance: run.provenance))
        }
    }
}
