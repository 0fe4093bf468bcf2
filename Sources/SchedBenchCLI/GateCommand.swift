import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Run a baseline and a candidate build interleaved on the same cases, then compare.",
        discussion: """
            Both executables are schedbench builds (for example main's and the pull \
            request's) that speak the same child protocol. Each round runs --trials-per-round timed trials of every case on \
            each build (their geometric mean is the round's value), in alternating order, so machine drift hits both \
            alike, and counts allocations (and \
            instructions, when asked) in every round. Each round's two trials of a case are \
            compared as a pair (the per-round ratio), which cancels drift between rounds. Options after -- go to \
            `schedbench run` to choose the cases, e.g. -- --suite quick --workload observeOn.throughput. \
            Writes baseline/, candidate/, comparison.csv and report/index.html (the HTML \
            report of the candidate against the baseline) under --out. With --shard K/N it runs \
            the rounds of its share of the cases and compares nothing (exit 0 once they ran): \
            `merge` of every shard's directory compares all the cases at once and decides.

            Exit codes: 0 no regression; 2 regression; 3 correctness failure in the candidate; \
            1 a build failed to run or its output was unreadable; 64 usage.
            """
    )

    @Option(help: ArgumentHelp("The baseline build's schedbench executable.", valueName: "path"))
    var baseline: String

    @Option(help: ArgumentHelp("The candidate build's schedbench executable.", valueName: "path"))
    var candidate: String

    @Option(parsing: .unconditional, help: "Rounds: paired values per case on each side.")
    var rounds = 10

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Timed trials of each case per round and side; their geometric mean is the round's value.",
            valueName: "n"))
    var trialsPerRound = InterleavedRuns.defaultTrialsPerRound

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds one side's round may take before it is killed (default: \(Int(RunOptions().childTimeout)) s for the first round, then 10× the slowest first round, at least 60 s).",
            valueName: "seconds"))
    var childTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --instructions: rounds run again on the cases whose instruction count the rounds would call changed, "
                + "or leave undecided past half the threshold, each case in processes of its own; their rows are decided on these "
                + "rounds (0: none; else at least 2). A count "
                + "that keeps one of two levels a process is then seen to move, and a change just past the threshold gets the "
                + "rounds to decide it.",
            valueName: "n"))
    var confirmationRounds = GateWorkflow.defaultConfirmationRounds

    @Option(help: "Directory for both sides' results and comparison.csv (default: results/gate-<time>).")
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Run only shard K of N of the cases (as `run --shard`), and compare nothing: `merge` of all N shards compares and decides.",
            valueName: "K/N"))
    var shard: String?

    @OptionGroup var comparison: ComparisonOptions

    @Argument(parsing: .postTerminator, help: "Options for `schedbench run` (after --).")
    var runArguments: [String] = []

    func validate() throws {
        guard rounds >= 2 else { throw ValidationError("--rounds \(rounds) must be at least 2 (a confidence bound needs two trials per side)") }
        guard Limits.trials.contains(rounds) else { throw ValidationError("--rounds \(rounds) is outside 2...\(Limits.trials.upperBound)") }
        guard Limits.trials.contains(trialsPerRound) else {
            throw ValidationError("--trials-per-round \(trialsPerRound) is outside 1...\(Limits.trials.upperBound)")
        }
        guard (0...Limits.trials.upperBound - rounds).contains(confirmationRounds) else {
            throw ValidationError("--confirmation-rounds \(confirmationRounds) is outside 0...\(Limits.trials.upperBound - rounds) (with --rounds \(rounds))")
        }
        guard confirmationRounds != 1 else {
            throw ValidationError("--confirmation-rounds 1 cannot decide a row (a recounted row is decided on its recount's rounds, two at least); give 0 or 2 or more")
        }
        if let childTimeout, !Limits.childTimeoutSeconds.contains(childTimeout) {
            throw ValidationError(
                "--child-timeout \(childTimeout) is outside \(Limits.childTimeoutSeconds.lowerBound)...\(Limits.childTimeoutSeconds.upperBound)")
        }
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out '' names no directory") }
        for (option, path) in [("--baseline", baseline), ("--candidate", candidate)] {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw ValidationError("\(option) '\(path)' does not exist")
            }
            if isDirectory.boolValue { throw ValidationError("\(option) '\(path)' is a directory, not a schedbench executable") }
            if !FileManager.default.isExecutableFile(atPath: path) { throw ValidationError("\(option) '\(path)' is not executable") }
        }
        guard !runArguments.isEmpty else {
            // Without a selection the default suite would run once per round on each side: hours.
            throw ValidationError(
                "name the cases to gate after --, as `schedbench run` takes them: for example -- --suite quick (the default suite, once per round and side, takes hours)"
            )
        }
        func given(_ option: String) -> Bool { runArguments.contains { $0 == option || $0.hasPrefix(option + "=") } }
        if given("--trials") {
            throw ValidationError("--trials is set by gate (each round runs --trials-per-round); remove it from the run options")
        }
        for reserved in ["--out", "--isolate", "--processes"] where given(reserved) {
            throw ValidationError("\(reserved) is set by gate; remove it from the run options")
        }
        if given("--shard") {
            throw ValidationError("--shard: give it to gate, before --, so that the gate knows it is a shard")
        }
        if given("--report") {
            throw ValidationError("--report: gate writes its own report (report/index.html under --out); remove it from the run options")
        }
        if given("--history") {
            throw ValidationError(
                "--history: a gate's rounds are not a run to keep; add a run with `schedbench history add`, and remove it from the run options")
        }
        let cases = try runCommand().planned().cases
        if let shard = try shardChoice(), shard.count > cases.count {
            throw ValidationError("--shard \(shard): the run options select \(cases.count) case(s), fewer than \(shard.count) shards")
        }
    }

    private func shardChoice() throws -> Shard? { try RunCommand.shard(shard) }

    /// The `schedbench run` options after `--`, parsed as `run` parses them: their names
    /// checked and their cases planned by the measuring executable this tool drives (the
    /// built-ins beside it, or `SCHEDBENCH_TARGET`'s), as `run` plans them.
    private func runCommand() throws -> RunCommand {
        do {
            return try RunCommand.parse(runArguments)
        } catch {
            throw ValidationError("run options after --: \(RunCommand.message(for: error))")
        }
    }

    func run() throws {
        let runOptions = try runCommand()
        let plan = try runOptions.planned().cases
        guard !plan.isEmpty else { throw ValidationError("the run options after -- select no cases (see `schedbench run --dry-run`)") }
        let shard = try shardChoice()
        let cases = shard?.select(plan) ?? plan
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let directory = URL(fileURLWithPath: out ?? "results/gate-\(stamp)")
        var runs = InterleavedRuns(
            baseline: baseline, candidate: candidate, cases: cases, options: runOptions.options,
            rounds: rounds, directory: directory, trialsPerRound: trialsPerRound, childTimeout: childTimeout.map(TimeInterval.init))
        let policy = try comparison.policy()
        if InterleavedRuns.sidesCanRunTogether(runs.options, comparing: policy.metrics) {
            runs.sidesTogether = true
            printError(
                "gate: only instruction counts are compared, so each round runs both builds at once, "
                    + "each counting in at most \(runs.countingChildrenEachSide) valgrind process(es) at a time, each process kept to one processor; "
                    + "their timed trials are not compared")
        }
        if runs.options.countInstructions { printError("gate: " + RealTimeScheduling.countingScheduler(runs.options)) }
        var gate = GateWorkflow(
            runs: runs, policy: policy, shard: shard.map { ShardFile(kind: .gate, shard: $0, plan: plan, rounds: rounds) })
        gate.confirmationRounds = confirmationRounds
        let progress = ProgressRenderer(live: isatty(STDERR_FILENO) == 1)
        let cancellation = CancellationToken()
        let interrupts = Interrupts.cancelOnInterrupt(
            cancellation, stopping: "stopping after the current round",
            terminated: { "terminated: the rounds finished so far are in \(directory.path)" })
        defer { interrupts.cancel() }
        let outcome = try gate.execute(observer: progress, cancellation: cancellation)
        progress.finish()
        guard outcome.finished else {
            printError("interrupted: the finished rounds are in \(directory.path)")
            throw ExitStatus.interrupted
        }
        if let shard {
            printError(
                "gate: shard \(shard) (\(cases.count) of \(plan.count) cases) ran \(rounds) rounds in \(directory.path); "
                    + "`merge` of all \(shard.count) shards compares them and decides")
            return
        }
        guard let found = outcome.comparison, let report = outcome.report else { throw ExitStatus.error }
        var status = ExitStatus(try comparison.present(found, new: runs.resultsDirectory(.candidate).path))
        switch report {
        case .success(let file):
            printError("gate: results in \(directory.path); report: \(file.path)")
        case .failure(let error):
            // The comparison's verdict stands; a report that cannot be written only fails a passing gate.
            printError("error: the report: \(error)")
            if status == .ok { status = .error }
        }
        if status != .ok { throw status }
    }
}
