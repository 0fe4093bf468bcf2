import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// Storing finished runs in a history (`schedbench history add`).
package enum HistoryWorkflow {
    /// Reads and checks every run in `paths` (results directories or `results.csv` files)
    /// before the history is touched, so a bad one adds nothing; then adds them in order,
    /// calling `added` after each (a run already stored is left as it is). A run that
    /// cannot be read, or a history that refuses one, throws `BenchError`; the runs added
    /// before it stay added.
    package static func add(
        runs paths: [String], to location: HistoryLocation, added: (_ runID: String, _ outcome: History.AddOutcome) -> Void
    ) throws {
        let read = try paths.map { path -> (cases: [CaseResult], provenance: Provenance) in
            let (cases, provenance) = try ResultsFiles.read(path)
            guard let provenance, !cases.isEmpty else { throw BenchError.unreadable(path: path, problem: "holds no results") }
            return (cases, provenance)
        }
        let history = try History(location, create: true)
        for run in read {
            added(run.provenance.runID, try history.add(run.cases, provenance: run.provenance))
        }
    }
}
