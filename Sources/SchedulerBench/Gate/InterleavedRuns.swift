import Foundation

/// `schedbench gate`: runs a baseline build and a candidate build of schedbench on the same
/// cases in alternating rounds, one timed trial per case per round, so slow drift of the
/// machine (thermal, noisy neighbours, a 2× move between sessions) lands on both sides
/// alike. The order alternates (A B, B A, A B, …) so neither side always runs second.
/// Counting trials (allocations, instructions) run in the first round only: they do not
/// depend on load. Each side's rounds are merged into one results directory, round r
/// becoming trial r.
public struct InterleavedRuns {
    public enum Side: String, CaseIterable, Sendable {
        case baseline, candidate
    }

    public var executables: [Side: String]
    public var rounds: Int
    /// `schedbench run` options choosing the cases (suite, workloads, axes, warmup…).
    public var runArguments: [String]
    public var directory: URL

    public init(baseline: String, candidate: String, rounds: Int, runArguments: [String], directory: URL) {
        executables = [.baseline: baseline, .candidate: candidate]
        self.rounds = rounds
        self.runArguments = runArguments
        self.directory = directory
    }

    public func resultsDirectory(_ side: Side) -> URL { directory.appendingPathComponent(side.rawValue) }

    /// Runs every round and writes the merged results; `progress` hears each step. Throws when
    /// a run fails for any reason but a correctness failure (exit 3), whose results are kept
    /// for `compare` to report.
    public func execute(progress: (String) -> Void) throws {
        var merged: [Side: [CaseResult]] = [:]
        var provenance: [Side: Provenance] = [:]
        for round in 1...rounds {
            let order: [Side] = round % 2 == 1 ? [.baseline, .candidate] : [.candidate, .baseline]
            for side in order {
                progress("round \(round)/\(rounds): \(side.rawValue)")
                let out = directory.appendingPathComponent("rounds/\(side.rawValue)-\(round)")
                try runOnce(executables[side]!, out: out, countingRound: round == 1)
                let (cases, runProvenance) = try ResultsFiles.read(out.path)
                provenance[side] = provenance[side] ?? runProvenance
                merged[side] = Self.merge(merged[side] ?? [], cases, round: round)
            }
        }
        for side in Side.allCases {
            guard let sideProvenance = provenance[side] else { continue }
            let url = resultsDirectory(side)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try ResultsFiles.write(merged[side] ?? [], provenance: sideProvenance, to: url)
        }
    }

    private func runOnce(_ executable: String, out: URL, countingRound: Bool) throws {
        var arguments = runArguments.filter { countingRound || $0 != "--instructions" }
        arguments += ["--trials", "1", "--out", out.path, "--quiet", "--no-table"]
        if !countingRound { arguments.append("--no-allocations") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run"] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            throw WorkloadError("cannot start \(executable): \(error.localizedDescription)")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 || process.terminationStatus == 3 else {
            let lastLines = said.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw WorkloadError("\(executable) run exited with status \(process.terminationStatus): \(lastLines)")
        }
    }

    /// Adds one round's cases: its timed trial 1 becomes trial `round`; trial 0 is kept.
    static func merge(_ merged: [CaseResult], _ round: [CaseResult], round number: Int) -> [CaseResult] {
        var merged = merged
        for result in round {
            let records = result.trials.map { record -> TrialRecord in
                var record = record
                if record.trial != TrialRecord.countingTrial { record.trial = number }
                return record
            }
            if let index = merged.firstIndex(where: { $0.benchCase == result.benchCase }) {
                merged[index].trials += records
            } else {
                merged.append(CaseResult(benchCase: result.benchCase, trials: records))
            }
        }
        return merged
    }
}
