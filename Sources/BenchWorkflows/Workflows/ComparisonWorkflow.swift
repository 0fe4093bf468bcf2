import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// How a comparison decides: the policy `compare` and `gate` share.
package struct ComparisonPolicy: Sendable {
    /// The thresholds (default, per metric, per workload).
    package var thresholds: Thresholds
    /// The metrics compared, in row order.
    package var metrics: [Metric]
    /// Holm over the whole comparison, or each row on its own.
    package var method: Comparison.Method
    /// A case measured on one side only makes the decision `mismatched`.
    package var requireAll: Bool
    /// Inconclusive rows count against the decision as regressions do.
    package var failOnInconclusive: Bool
    /// Runs on different testbeds are refused (`mismatched`) instead of compared with a warning.
    package var requireSameTestbed: Bool
    /// Each case's A/A noise floor (`compare --noise-floor`): a row's threshold is raised to
    /// it where it is larger. Two runs only; nil elsewhere.
    package var noiseFloor: NoiseFloor? = nil

    package init(
        thresholds: Thresholds, metrics: [Metric] = Metric.comparedByDefault, method: Comparison.Method = .familyWise,
        requireAll: Bool = false, failOnInconclusive: Bool = false, requireSameTestbed: Bool = false
    ) {
        self.thresholds = thresholds
        self.metrics = metrics
        self.method = method
        self.requireAll = requireAll
        self.failOnInconclusive = failOnInconclusive
        self.requireSameTestbed = requireSameTestbed
    }
}

/// What a comparison found, and what a person should be told about its inputs.
package struct ComparisonOutcome: Sendable {
    /// Something about the inputs worth saying before the table (different testbeds, a
    /// busy machine, a thin history window). None changes the decision.
    package enum Notice: Sendable, Equatable {
        /// The result may mislead: read it with this in mind.
        case warning(String)
        /// For information.
        case note(String)
    }

    /// In the order they were found.
    package var notices: [Notice]
    /// The rows; nil when the inputs could not be compared at all (`decision` says why).
    package var comparison: Comparison?
    package var decision: ComparisonDecision
}

/// The comparison workflows of `compare`, `compare --history` and `gate`: read the runs,
/// apply the testbed policy, compare, write `comparison.csv` when asked, decide. Reads files
/// and the history; prints nothing.
package enum ComparisonWorkflow {
    /// NEW against BASE (results directories or `results.csv` files). `paired`: trials with
    /// the same number form pairs (a gate's rounds). `rounds`: a gate's rounds, after which
    /// a case counted again holds the rounds it was counted alone in, and is judged on those
    /// only (`GateWorkflow.judgedRounds`). Unreadable input throws `BenchError`.
    package static func compare(
        base: String, new: String, paired: Bool = false, policy: ComparisonPolicy, writingCSVTo csv: URL? = nil,
        recountedAfter rounds: Int? = nil
    ) throws -> ComparisonOutcome {
        var (baseCases, baseProvenance) = try ResultsFiles.read(base)
        var (newCases, newProvenance) = try ResultsFiles.read(new)
        if let rounds {
            baseCases = GateWorkflow.judgedRounds(baseCases, rounds: rounds)
            newCases = GateWorkflow.judgedRounds(newCases, rounds: rounds)
        }
        var notices: [ComparisonOutcome.Notice] = []
        if let baseProvenance, let newProvenance {
            let differences = baseProvenance.testbedDifferences(from: newProvenance)
            if !differences.isEmpty {
                let said = "BASE and NEW were measured on different testbeds: \(differences.joined(separator: "; "))"
                if policy.requireSameTestbed {
                    return ComparisonOutcome(notices: notices, comparison: nil, decision: .mismatched(said + " (--require-same-testbed)"))
                }
                notices.append(
                    .warning("\(said); a difference may be the machines', not the code's (--require-same-testbed makes this an error)"))
            }
            notices += busyWarning("BASE", baseProvenance)
        }
        if let newProvenance { notices += busyWarning("NEW", newProvenance) }
        notices += baseFailures(baseCases, base: base)
        notices += unusedThresholds(policy.thresholds, measured: baseCases + newCases)
        if !paired { notices += try processNotices(base: base, new: new) }
        if let floor = policy.noiseFloor { notices += noiseFloorNotices(floor, new: newCases) }
        let comparison = Comparison(
            base: baseCases, new: newCases, thresholds: policy.thresholds, metrics: policy.metrics, method: policy.method, paired: paired,
            noiseFloor: policy.noiseFloor)
        return try conclude(comparison, notices: notices, baseCases: baseCases.count, newCases: newCases.count, base: base, new: new, policy: policy, csv: csv)
    }

    /// NEW against the last `window` comparable runs of each case in a history (same
    /// testbed, started before NEW). Cases with no comparable run are listed, and decide
    /// only with `requireAll`.
    package static func compare(
        history location: HistoryLocation, new: String, window: Int, policy: ComparisonPolicy, writingCSVTo csv: URL? = nil
    ) throws -> ComparisonOutcome {
        let (newCases, newProvenance) = try ResultsFiles.read(new)
        guard let newProvenance, !newCases.isEmpty else { throw BenchError.unreadable(path: new, problem: "holds no results") }
        guard newProvenance.testbedIsRecorded else {
            throw BenchError.mismatched(
                "\(new) does not record its testbed (a run from before the fingerprint); a history compares only runs on an equal, recorded testbed")
        }
        var notices = busyWarning("NEW", newProvenance)
        notices += unusedThresholds(policy.thresholds, measured: newCases)
        let history = try History(location, create: false)
        let windows = try history.window(for: newProvenance, cases: newCases.map(\.benchCase), size: window)
        if windows.isEmpty {
            return ComparisonOutcome(
                notices: notices, comparison: nil,
                decision: .mismatched(
                    "nothing to compare: no run in the history \(location) measured NEW's cases on NEW's testbed before it "
                        + "(add runs of the base branch first: schedbench history add, or run --history)"))
        }
        let short = windows.values.filter { $0.count < 5 }.count
        if short > 0 {
            notices.append(
                .note(
                    "\(short) of \(windows.count) cases have fewer than 5 comparable runs in the history; "
                        + "their bounds are wide (a t with one degree of freedom fewer than runs), so they are mostly inconclusive"))
        }
        let comparison = Comparison(window: windows, new: newCases, thresholds: policy.thresholds, metrics: policy.metrics, method: policy.method)
        return try conclude(
            comparison, notices: notices, baseCases: windows.count, newCases: newCases.count, base: "the history \(location)", new: new,
            policy: policy, csv: csv)
    }

    /// A warning naming BASE's cases that broke an invariant or leaked, with what was
    /// violated: they do not decide (only NEW's do), but a gate's baseline failing the same
    /// way says the failure is not the candidate's.
    static func baseFailures(_ cases: [CaseResult], base: String) -> [ComparisonOutcome.Notice] {
        let failing = cases.filter { $0.correctnessFailures > 0 }
        guard !failing.isEmpty else { return [] }
        let lines = failing.map { result in
            "\n  \(result.benchCase): \(Int(result.values(.invariantViolations).reduce(0, +))) invariant violations, "
                + "\(Int(result.values(.resourcesLeaked).reduce(0, +))) leaked resources"
                + result.violationSamples.prefix(5).map { "\n    \($0.location): \($0.description)" }.joined()
        }
        return [.warning("BASE (\(base)) has correctness failures too (only NEW's decide):" + lines.joined())]
    }

    /// A warning naming the workloads the thresholds set a threshold for that no compared
    /// case measured: a misspelt name would otherwise leave its workload on the default.
    static func unusedThresholds(_ thresholds: Thresholds, measured: [CaseResult]) -> [ComparisonOutcome.Notice] {
        let names = Set(measured.map(\.benchCase.workload))
        let unused = thresholds.workloads.keys.filter { !names.contains($0) }.map(\.rawValue).sorted()
        guard !unused.isEmpty else { return [] }
        return [
            .warning(
                "the thresholds name \(unused.count == 1 ? "a workload" : "workloads") neither run measured, so they set nothing: "
                    + unused.joined(separator: ", "))
        ]
    }

    /// What two unpaired runs' intervals cannot know. A run in one process holds trials of
    /// that process only, so its interval leaves out the spread between processes, which
    /// two runs of one build differ by (on a loaded 2-core VM, the median case's
    /// `ns_per_event` by a log-SD of 0.185 a process; docs/performance, journal); a run
    /// made with `--processes K` holds one value per process, and its interval has it. A
    /// side in one process is warned of, and so are sides of the two kinds, whose trials
    /// are not alike.
    static func processNotices(base: String, new: String) throws -> [ComparisonOutcome.Notice] {
        let (baseProcesses, newProcesses) = (try processes(base), try processes(new))
        if baseProcesses > 1 && newProcesses > 1 { return [] }
        if baseProcesses > 1 || newProcesses > 1 {
            return [
                .warning(
                    "BASE ran in \(baseProcesses) process(es) and NEW in \(newProcesses): a trial of one is a process's value, of the other a trial inside one process, "
                        + "so their spreads are not alike; make both with the same --processes")
            ]
        }
        return [
            .warning(
                "BASE and NEW each ran in one process: their intervals hold the spread of trials inside a process, not the larger spread between processes, "
                    + "so a verdict on time, CPU time or memory can be the processes', not the code's; make both runs with --processes 5, or use gate, or compare --history")
        ]
    }

    /// What a noise floor leaves unguarded: a warning when it has no value for any of NEW's
    /// cases (a floor of another suite, say), a note naming how many it has none for.
    static func noiseFloorNotices(_ floor: NoiseFloor, new: [CaseResult]) -> [ComparisonOutcome.Notice] {
        let missing = new.filter { !floor.covers($0.benchCase) }
        if missing.isEmpty { return [] }
        if missing.count == new.count {
            return [.warning("the noise floor has no value for any of NEW's \(new.count) cases, so it raises no threshold: measure it on runs of this suite (compare --write-noise-floor)")]
        }
        return [
            .note(
                "the noise floor has no value for \(missing.count) of NEW's \(new.count) cases (first: \(missing[0].benchCase.benchmarkName)); "
                    + "their thresholds are the thresholds file's")
        ]
    }

    /// The noise floor of `runs`, runs of one build (`compare --write-noise-floor`), and what
    /// to know about it: a warning for runs made in one process, whose trials never
    /// showed the spread between processes, and one for runs that record different commits,
    /// whose floor holds the builds' difference too (a commit is read from the working tree
    /// when a run starts, so one binary run before and after an edit records two).
    package static func measureNoiseFloor(runs: [String]) throws -> (floor: NoiseFloor, notices: [ComparisonOutcome.Notice]) {
        var results: [[CaseResult]] = []
        var commits: [(path: String, commit: String)] = []
        var notices: [ComparisonOutcome.Notice] = []
        for path in runs {
            let (cases, provenance) = try ResultsFiles.read(path)
            guard !cases.isEmpty else { throw BenchError.unreadable(path: path, problem: "holds no results") }
            results.append(cases)
            if let commit = provenance?.commit, commit != "unknown" { commits.append((path, commit)) }
            if try processes(path) == 1 {
                notices.append(
                    .warning(
                        "\(path) ran in one process: its trials show the spread inside a process, not between processes, "
                            + "so the floor can be too low; make the A/A runs with --processes 5, as the runs you compare"))
            }
        }
        if let first = commits.first, let other = commits.first(where: { $0.commit != first.commit }) {
            notices.append(
                .warning(
                    "a noise floor is measured on runs of one build, and these record different commits (\(first.path): \(first.commit), "
                        + "\(other.path): \(other.commit)): if they are different builds, the floor holds their difference too"))
        }
        return (NoiseFloor.measure(results), notices)
    }

    /// How many processes the run at `path` (a results directory or its `results.csv`) was
    /// made in: its status's `--processes`, 1 without one.
    static func processes(_ path: String) throws -> Int {
        var directory = URL(fileURLWithPath: path)
        if directory.lastPathComponent == ResultsFiles.resultsName { directory.deleteLastPathComponent() }
        return try RunStatus.read(in: directory)?.processes ?? 1
    }

    /// A warning when `provenance` says its run started with the load average at or above
    /// the core count.
    static func busyWarning(_ side: String, _ provenance: Provenance) -> [ComparisonOutcome.Notice] {
        guard let load = Double(provenance.loadAverage), load >= Double(max(1, provenance.cores)) else { return [] }
        return [.warning("\(side) started on a busy machine (load average \(provenance.loadAverage) on \(provenance.cores) cores)")]
    }

    private static func conclude(
        _ comparison: Comparison, notices: [ComparisonOutcome.Notice], baseCases: Int, newCases: Int, base: String, new: String,
        policy: ComparisonPolicy, csv: URL?
    ) throws -> ComparisonOutcome {
        if let csv { try ComparisonFile.write(comparison, to: csv) }
        let decision = comparison.decision(
            baseCases: baseCases, newCases: newCases, base: base, new: new, requireAll: policy.requireAll,
            failOnInconclusive: policy.failOnInconclusive)
        return ComparisonOutcome(notices: notices, comparison: comparison, decision: decision)
    }
}
