import BenchAnalysis
import BenchModel
import Foundation

/// `schedbench merge`: puts the shards of one run, or of one gate, made on different
/// machines with `--shard K/N`, back together.
///
/// - A run's shards become one run in `directory`: `results.csv`, `summary.csv`,
///   `violations.csv`, `run-status.json` and the latency distributions, the cases in the
///   whole plan's order. It then gets its report and joins a history as a whole run does
///   (`RunWorkflow.conclude`).
/// - A gate's shards become one gate's `baseline/` and `candidate/`, compared once over
///   every case (`GateWorkflow.compare`), so the family-wise correction covers the whole
///   plan and there is one verdict.
///
/// Nothing is written unless every shard of the plan is there exactly once, all of one
/// plan, kind and build, and each finished: every case of its share measured (and, for a
/// gate, every round of both sides). What is wrong is named by shard and directory.
///
/// The merged rows carry one provenance: the first shard's, with the run id
/// `<its run id>-merged`, the earliest start, every host, and the highest load average.
/// Shards measured on different testbeds merge with a warning, the differing text columns
/// of the testbed listing every value (`cpu A | cpu B`; `cores` stays the first shard's); a
/// history then compares the run only with runs of the same mixture.
package struct MergeWorkflow: Sendable {
    /// The shards' directories, in any order.
    package var shards: [URL]
    /// Where the merged run or gate goes.
    package var directory: URL
    /// Replace results already in `directory`.
    package var replaceExisting: Bool
    /// A run's shards: also write the merged run's HTML report.
    package var writeReport: Bool
    /// A run's shards: add the merged run to this history when it is clean.
    package var history: HistoryLocation?
    /// A gate's shards: how the comparison decides.
    package var policy: ComparisonPolicy

    package init(
        shards: [URL], directory: URL, replaceExisting: Bool = false, writeReport: Bool = false, history: HistoryLocation? = nil,
        policy: ComparisonPolicy
    ) {
        self.shards = shards
        self.directory = directory
        self.replaceExisting = replaceExisting
        self.writeReport = writeReport
        self.history = history
        self.policy = policy
    }

    /// What a merge came to.
    package struct Outcome: Sendable {
        package var kind: ShardFile.Kind
        /// The shards merged (N).
        package var shardCount: Int
        /// Every case of the plan, in its order.
        package var cases: [BenchCase]
        /// What the merge warns of (shards on different testbeds).
        package var warnings: [String]
        /// A run's merged results; empty for a gate.
        package var results: [CaseResult]
        /// A run's merged run id; nil for a gate.
        package var runID: String?
        /// A run's report, when asked for; a gate's report (always written).
        package var report: Result<URL, BenchError>?
        /// A run's step into the history, when one was given.
        package var history: RunWorkflow.HistoryStep?
        /// A run: every case clean and its report, when asked for, written.
        package var isClean: Bool
        /// A gate's comparison of the candidate against the baseline.
        package var comparison: ComparisonOutcome?
    }

    /// A shard found: its directory and what its `shard.json` says.
    struct Found {
        var directory: URL
        var file: ShardFile
        var name: String { "shard \(file.shard) (\(directory.path))" }
    }

    /// Merges. Throws `BenchError`: `.mismatched` for shards that do not make one whole
    /// (missing, given twice, of another plan, kind or build, unfinished), `.unreadable`
    /// and `.unwritable` for files, `.usage` for a history with a gate's shards.
    package func execute() throws -> Outcome {
        let found = try Self.check(try shards.map(Self.read))
        let kind = found[0].file.kind
        if kind == .gate && (history != nil || writeReport) {
            throw BenchError.usage(
                "these are a gate's shards: the merged gate always writes its report, and its rounds are not a run to add to a history")
        }
        let plan = Shard.interleave(found.map(\.file.cases))!
        let merged: [(side: String?, results: [CaseResult], provenance: Provenance, warnings: [String])]
        var processes = 1
        switch kind {
        case .run:
            let (results, provenance, runProcesses, warnings) = try Self.side(nil, of: found, plan: plan)
            merged = [(nil, results, provenance, warnings)]
            processes = runProcesses
        case .gate:
            merged = try GateSide.allCases.map { side in
                let (results, provenance, _, warnings) = try Self.side(side, of: found, plan: plan)
                return (side.rawValue, results, provenance, warnings.map { "\(side.rawValue): \($0)" })
            }
        }

        let existing = [ResultsFiles.resultsName, ComparisonFile.name, GateSide.candidate.rawValue]
            .map { directory.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        try ResultsFiles.prepare(directory)
        let claim = try DirectoryClaim(directory)
        defer { withExtendedLifetime(claim) {} }
        if !replaceExisting, let first = existing.first { throw BenchError.resultsExist(path: first) }
        if let history { try History.checkWritable(history) }
        ShardFile.remove(in: directory)

        var outcome = Outcome(
            kind: kind, shardCount: found.count, cases: plan, warnings: merged.flatMap(\.warnings), results: [], runID: nil, report: nil,
            history: nil, isClean: true, comparison: nil)
        switch kind {
        case .run:
            let (_, results, provenance, _) = merged[0]
            LatencyFiles.removeAll(in: directory)
            let files = RunFiles(directory: directory, provenance: provenance, planned: plan.count)
            if processes > 1 { try files.write(results, processes: processes, finished: processes) } else { try files.write(results, latest: nil) }
            for shard in found { try LatencyFiles.copyAll(from: shard.directory, to: directory) }
            let concluded = RunWorkflow.conclude(
                directory: directory, runID: provenance.runID, clean: results.allSatisfy { $0.correctnessFailures == 0 },
                writeReport: writeReport, history: history)
            outcome.results = results
            outcome.runID = provenance.runID
            outcome.report = concluded.report
            outcome.history = concluded.history
            outcome.isClean = concluded.isClean
        case .gate:
            for (side, results, provenance, _) in merged {
                let url = directory.appendingPathComponent(side!)
                try ResultsFiles.prepare(url)
                try ResultsFiles.write(results, provenance: provenance, to: url)
            }
            let recounted = found.first.flatMap { $0.file.confirmationRounds == nil ? nil : $0.file.rounds }
            let (comparison, report) = try GateWorkflow.compare(in: directory, policy: policy, rounds: recounted)
            outcome.comparison = comparison
            outcome.report = report
        }
        return outcome
    }

    /// The shard in `directory`.
    static func read(_ directory: URL) throws -> Found {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchError.unreadable(path: directory.path, problem: "is not a directory")
        }
        guard let file = try ShardFile.read(in: directory) else {
            throw BenchError.mismatched(
                "\(directory.path) is not a shard: it has no \(ShardFile.fileName) (make shards with `run --shard K/N` or `gate --shard K/N`)")
        }
        let shard = file.shard
        guard (1...Shard.maximumCount).contains(shard.count), (1...shard.count).contains(shard.index),
            file.cases.count == (file.planned - (shard.index - 1) + shard.count - 1) / shard.count
        else {
            throw BenchError.unreadable(
                path: directory.appendingPathComponent(ShardFile.fileName).path,
                problem: "describes shard \(shard.index)/\(shard.count) with \(file.cases.count) of \(file.planned) cases, which no --shard makes")
        }
        return Found(directory: directory, file: file)
    }

    /// The shards in order, once each checked to be the whole of one plan: of one kind,
    /// plan, shard count and number of rounds, none given twice and none missing.
    static func check(_ found: [Found]) throws -> [Found] {
        guard let first = found.first else { throw BenchError.usage("name the shards' directories") }
        for shard in found.dropFirst() {
            if shard.file.kind != first.file.kind {
                throw BenchError.mismatched(
                    "\(first.name) is a \(first.file.kind.rawValue)'s shard and \(shard.name) a \(shard.file.kind.rawValue)'s; merge the shards of one run or one gate")
            }
            if shard.file.plan != first.file.plan || shard.file.shard.count != first.file.shard.count {
                throw BenchError.mismatched(
                    "\(first.name) and \(shard.name) are not shards of one plan (\(first.file.planned) cases in \(first.file.shard.count) shards, "
                        + "plan \(first.file.plan); \(shard.file.planned) cases in \(shard.file.shard.count), plan \(shard.file.plan)): "
                        + "every shard must be made with the same cases and the same N")
            }
            if shard.file.rounds != first.file.rounds {
                throw BenchError.mismatched(
                    "\(first.name) ran \(first.file.rounds ?? 0) rounds and \(shard.name) \(shard.file.rounds ?? 0); give every shard of a gate the same --rounds")
            }
        }
        var byIndex: [Int: Found] = [:]
        for shard in found {
            if let earlier = byIndex[shard.file.shard.index] {
                throw BenchError.mismatched(
                    "shard \(shard.file.shard) is given twice: \(earlier.directory.path) and \(shard.directory.path)")
            }
            byIndex[shard.file.shard.index] = shard
        }
        let count = first.file.shard.count
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let given = byIndex.keys.sorted().map { "\($0)/\(count)" }.joined(separator: ", ")
            throw BenchError.mismatched(
                "\(missing.map { "shard \($0)/\(count)" }.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing "
                    + "(given: \(given)); a merge needs all \(count)")
        }
        return (1...count).map { byIndex[$0]! }
    }

    /// One side of the merge (a run's results, or a gate's `baseline/` or `candidate/`):
    /// every shard's results, checked to be its cases complete, in plan order, with their
    /// provenance merged and the testbed differences as warnings; and, for a run, the
    /// processes each case ran in (`run --processes`), which every shard must share.
    static func side(
        _ side: GateSide?, of found: [Found], plan: [BenchCase]
    ) throws -> (results: [CaseResult], provenance: Provenance, processes: Int, warnings: [String]) {
        var byCase: [BenchCase: CaseResult] = [:]
        var provenances: [(name: String, provenance: Provenance)] = []
        var runProcesses: (name: String, processes: Int)?
        for shard in found {
            let directory = side.map { shard.directory.appendingPathComponent($0.rawValue) } ?? shard.directory
            let name = side.map { "\(shard.name)'s \($0.rawValue)" } ?? shard.name
            if side == nil {
                guard let status = try RunStatus.read(in: directory) else {
                    throw BenchError.mismatched("\(name) has no \(RunStatus.fileName): its run never wrote a case; run it again")
                }
                if !status.isComplete {
                    let finished =
                        status.finished < status.planned
                        ? "\(status.finished) of \(status.planned) cases finished"
                        : "\(status.processesFinished ?? 1) of \(status.processes ?? 1) processes finished"
                    throw BenchError.mismatched("\(name) is incomplete: \(finished) (a case failed, or the run was stopped); run it again")
                }
                let processes = status.processes ?? 1
                if let (firstName, firstProcesses) = runProcesses, firstProcesses != processes {
                    throw BenchError.mismatched(
                        "\(name) ran every case in \(processes) process(es) and \(firstName) in \(firstProcesses): make every shard with the same --processes")
                }
                if runProcesses == nil { runProcesses = (name, processes) }
            }
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(ResultsFiles.resultsName).path) else {
                throw BenchError.mismatched("\(name) holds no \(ResultsFiles.resultsName): the shard has not finished; run it again")
            }
            let (results, provenance) = try ResultsFiles.read(directory.path)
            let measured = Set(results.map(\.benchCase))
            let planned = Set(shard.file.cases)
            if measured != planned {
                let absent = shard.file.cases.filter { !measured.contains($0) }
                let extra = results.map(\.benchCase).filter { !planned.contains($0) }
                throw BenchError.mismatched(
                    "\(name) does not hold its share of the plan: "
                        + (absent.isEmpty ? "" : "\(absent.count) case(s) missing (\(absent.prefix(3).map { "\($0)" }.joined(separator: "; ")))")
                        + (absent.isEmpty || extra.isEmpty ? "" : ", ")
                        + (extra.isEmpty ? "" : "\(extra.count) case(s) not in it (\(extra.prefix(3).map { "\($0)" }.joined(separator: "; ")))")
                        + "; run it again")
            }
            if let rounds = shard.file.rounds {
                let recounted = rounds + (shard.file.confirmationRounds ?? 0)
                for result in results {
                    let trials = Set(result.trials.map(\.trial))
                    if trials != Set(1...rounds) && trials != Set(1...recounted) {
                        let expected = recounted > rounds ? "\(rounds) (or \(recounted), recounted)" : "\(rounds)"
                        throw BenchError.mismatched(
                            "\(name) holds \(trials.count) round(s) of \(result.benchCase), not \(expected): the gate did not finish; run it again")
                    }
                }
            }
            for result in results { byCase[result.benchCase] = result }
            provenances.append((name, provenance!))
        }
        let (provenance, warnings) = try merge(provenances)
        return (plan.map { byCase[$0]! }, provenance, runProcesses?.processes ?? 1, warnings)
    }

    /// The merged run's provenance (see the type's documentation). Shards of different
    /// builds (commit, build configuration, Swift) do not merge.
    static func merge(_ shards: [(name: String, provenance: Provenance)]) throws -> (Provenance, [String]) {
        let first = shards[0]
        for shard in shards.dropFirst() {
            let a = first.provenance
            let b = shard.provenance
            if a.commit != b.commit || a.build != b.build || a.swift != b.swift {
                throw BenchError.mismatched(
                    "\(shard.name) was measured by another build than \(first.name) (commit \(b.commit), \(b.build), \(b.swift) "
                        + "against commit \(a.commit), \(a.build), \(a.swift)); merge only shards of one build")
            }
        }
        func all(_ value: (Provenance) -> String) -> String {
            var seen: [String] = []
            for shard in shards where !seen.contains(value(shard.provenance)) { seen.append(value(shard.provenance)) }
            return seen.joined(separator: " | ")
        }
        var warnings: [String] = []
        for shard in shards.dropFirst() {
            let differences = first.provenance.testbedDifferences(from: shard.provenance).filter { !$0.contains("recorded by neither") }
            if !differences.isEmpty {
                warnings.append("\(shard.name) ran on another testbed than \(first.name): \(differences.joined(separator: "; "))")
            }
        }
        var merged = first.provenance
        merged.runID = "\(first.provenance.runID)-merged"
        merged.timestamp = shards.map(\.provenance.timestamp).min()!
        merged.host = all(\.host)
        merged.cpu = all(\.cpu)
        merged.kernel = all(\.kernel)
        merged.governor = all(\.governor)
        merged.cpuLimit = all(\.cpuLimit)
        merged.loadAverage = shards.map(\.provenance.loadAverage).max { (Double($0) ?? -1) < (Double($1) ?? -1) }!
        return (merged, warnings)
    }
}
