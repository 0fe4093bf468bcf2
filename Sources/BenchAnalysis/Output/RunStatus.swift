import BenchModel
import Foundation

/// `run-status.json`, beside `results.csv`: how much of the run the results hold. `run`
/// rewrites it after every case, so a run that was interrupted, terminated or stopped by a
/// failing case leaves `finished` < `planned`, and a report of it says it is partial.
/// Results directories from before this file, and a gate's `baseline/` and `candidate/`,
/// have none: their reports say nothing of completeness.
///
///     {"planned": 197, "finished": 12}
///     {"planned": 197, "finished": 197, "processes": 5, "processesFinished": 3}
package struct RunStatus: Codable, Sendable, Equatable {
    /// The cases the run set out to measure.
    package var planned: Int
    /// The cases `results.csv` holds (a case that could not run is not among them).
    package var finished: Int
    /// A run in several processes (`run --processes K`): K, each case's trial k then being
    /// process k's value; nil for a run in one process.
    package var processes: Int?
    /// Of those processes, how many ran every case (fewer when the run was stopped).
    package var processesFinished: Int?

    package init(planned: Int, finished: Int, processes: Int? = nil, processesFinished: Int? = nil) {
        self.planned = planned
        self.finished = finished
        self.processes = processes
        self.processesFinished = processesFinished
    }

    package var isComplete: Bool { finished >= planned && (processesFinished ?? 1) >= (processes ?? 1) }

    package static let fileName = "run-status.json"

    /// Writes the status atomically into `directory`.
    func write(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }

    /// The status in `directory`, nil when it has none; a file that is not a status is
    /// unreadable (`BenchError.unreadable`).
    package static func read(in directory: URL) throws -> RunStatus? {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(RunStatus.self, from: data)
        } catch {
            throw BenchError.unreadable(path: file.path, problem: "is not a run status like {\"planned\": 10, \"finished\": 4}")
        }
    }
}
