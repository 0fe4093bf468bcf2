import ArgumentParser
import Dispatch
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a suite of cases and write results.csv and summary.csv.",
        discussion: """
            Lists take repeated options or commas: --scheduler serial,concurrent. A filter \
            narrows the suite; an axis option replaces the suite's values for every workload \
            that has that axis. Combinations that do not apply are skipped and listed by --dry-run.
            """
    )

    @Option(help: "Suite: quick, default, full, scaling or instructions (see `schedbench list`).")
    var suite = "default"

    @Option(name: .customLong("workload"), help: ArgumentHelp("Workloads to run (see `schedbench list`).", valueName: "name"))
    var workloads: [String] = []

    @Option(name: .customLong("scheduler"), help: ArgumentHelp("Schedulers to run on.", valueName: "name"))
    var schedulers: [String] = []

    @Option(name: .customLong("strategy"), help: ArgumentHelp("Strategies to compare.", valueName: "name"))
    var strategies: [String] = []

    // Numbers parse unconditionally, so that a negative one reaches validation and is
    // named there instead of reading as a missing value.
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Producer thread counts, e.g. 1,2,4,8 (at most 256).", valueName: "n,…"))
    var producers: [String] = []

    @Option(parsing: .unconditional, help: "Events (operations, ticks) per trial, replacing the suite's sizes (at most 10,000,000).")
    var events: Int?

    @Option(
        parsing: .unconditionalSingleValue, help: ArgumentHelp("Payload sizes in bytes carried by each event (at most 65,536).", valueName: "bytes,…")
    )
    var payload: [String] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Pacing rates in events per second, for paced workloads (at most 10,000,000).", valueName: "hz,…"))
    var rate: [String] = []

    @Option(parsing: .unconditional, help: "Timed trials per case (at most 1,000).")
    var trials = 5

    @Option(parsing: .unconditional, help: "Untimed warmup trials per case (at most 100).")
    var warmup = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Run every case in this many processes, one after another, each with its warmup and --trials trials, keeping one value per process (their geometric mean): the run's intervals then hold the spread between processes, by which two runs of one build differ. Costs that many times the run (at most 100).",
            valueName: "n"))
    var processes = 1

    @Option(parsing: .unconditional, help: "Seconds a child process (the measuring executable, one per case with --isolate) may go without reporting progress before it is killed and its case fails: what bounds a trial that hangs, a registered workload's included.")
    var childTimeout = Int(RunOptions().childTimeout)

    @Option(help: "Results directory (default: results/<run-id>).")
    var out: String?

    @Option(
        defaultAsFlag: HistoryLocation.defaultPath, parsing: .next,
        help: ArgumentHelp(
            "Add the run to a history when it finishes cleanly (a SQLite file, default \(HistoryLocation.defaultPath), or a postgres:// URL).",
            valueName: "path-or-url"))
    var history: String? = nil

    @Flag(help: "Also write the HTML report of the run (report/index.html in the results directory).")
    var report = false

    @Option(
        help: ArgumentHelp(
            "Run only shard K of N of the planned cases (the cases at positions K, K+N, K+2N, …), to split a run across machines; `merge` puts the shards back together.",
            valueName: "K/N"))
    var shard: String?

    @Flag(help: "Replace the results already in --out (they stay until this run's first case is written).")
    var overwrite = false

    @Flag(help: "Run each case in its own child process.")
    var isolate = false

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    @Flag(help: "Print the cases (and the skipped combinations) without running them.")
    var dryRun = false

    @Flag(help: "Skip the allocation-counting trial.")
    var noAllocations = false

    @Flag(help: "Also run each trial with checkers and collectors off and report the harness's overhead.")
    var measureOverhead = false

    @Flag(help: "Also count instructions per event under callgrind (needs valgrind; each case then also runs 20-100× slower in a child).")
    var instructions = false

    @Flag(help: "Count instructions under the normal scheduler even where real-time scheduling (SCHED_FIFO) is permitted: the counting processes then leave other work its processors, and cross-thread counts move with the machine's load.")
    var noRealTimeCounting = false

    @Flag(help: "Do not print the summary table.")
    var noTable = false

    /// The comma-separated items of a list option. An option given with nothing in it is an
    /// error, not "no filter"; so is an empty item (`1,,2`, `1,`), which is a typo more often
    /// than not.
    static func split(_ values: [String], option: String) throws -> [String] {
        let items = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if items.allSatisfy(\.isEmpty) && !values.isEmpty {
            throw ValidationError("--\(option) '\(values.joined(separator: ","))' names nothing; give at least one value")
        }
        if items.contains(where: \.isEmpty) {
            throw ValidationError("--\(option) '\(values.joined(separator: ","))' has an empty item; separate values with single commas")
        }
        return items
    }

    /// The names given, each one the measuring executable has (`valid`).
    private static func names<Name: OpenName>(_ values: [String], option: String, valid: [Name]) throws -> [Name]? {
        let given = try split(values, option: option)
        guard !given.isEmpty else { return nil }
        return try given.map { value in
            let name = Name(value)
            guard valid.contains(name) else {
                throw ValidationError("unknown \(option) '\(value)'; valid: \(valid.map(\.rawValue).joined(separator: ", "))")
            }
            return name
        }
    }

    private static func numbers(_ values: [String], option: String, within limit: ClosedRange<Int>) throws -> [Int]? {
        let given = try split(values, option: option)
        guard !given.isEmpty else { return nil }
        return try given.map { value in
            guard let number = Int(value) else { throw ValidationError("--\(option) '\(value)' is not a whole number") }
            try check(number, option: option, within: limit)
            return number
        }
    }

    private static func check(_ number: Int, option: String, within limit: ClosedRange<Int>) throws {
        guard limit.contains(number) else {
            throw ValidationError("--\(option) \(number) is outside \(limit.lowerBound)...\(limit.upperBound)")
        }
    }

    func validate() throws {
        let described = try Self.target().describedForValidation()
        guard described.suites.contains(where: { $0.name == suite }) else {
            throw ValidationError("unknown suite '\(suite)'; valid: \(described.suites.map(\.name).joined(separator: ", "))")
        }
        try Self.check(trials, option: "trials", within: Limits.trials)
        try Self.check(warmup, option: "warmup", within: Limits.warmup)
        try Self.check(processes, option: "processes", within: Limits.processes)
        try Self.check(childTimeout, option: "child-timeout", within: Limits.childTimeoutSeconds)
        if let events { try Self.check(events, option: "events", within: Limits.events) }
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--out '' names no directory")
        }
        if let problem = FaultInjection.environmentProblem { throw ValidationError(problem) }
        _ = try historyLocation()
        let (cases, skipped) = try planned()
        if cases.isEmpty && !dryRun {
            let reasons = skipped.map { "\n  skipped \($0)" }.joined()
            throw ValidationError("no cases to run with these options\(reasons)")
        }
        if let shard = try shardChoice() {
            if history != nil {
                throw ValidationError("--history: a shard is a share of a run; add the merged run (`merge --history`)")
            }
            if shard.count > cases.count {
                throw ValidationError("--shard \(shard): the plan has \(cases.count) case(s), fewer than \(shard.count) shards; split it into at most \(cases.count)")
            }
        }
        for benchCase in cases where benchCase.rateHz > 0 && benchCase.events / benchCase.rateHz > Limits.pacedSecondsPerTrial {
            throw ValidationError(
                "\(benchCase): \(benchCase.events) events at \(benchCase.rateHz) Hz take \(benchCase.events / benchCase.rateHz) s per trial, "
                    + "over the limit of \(Limits.pacedSecondsPerTrial) s; raise --rate or lower --events")
        }
        for benchCase in cases where benchCase.payloadBytes * benchCase.events > Limits.payloadBytesPerTrial {
            throw ValidationError(
                "\(benchCase): \(benchCase.payloadBytes) payload bytes × \(benchCase.events) events exceeds "
                    + "\(Limits.payloadBytesPerTrial >> 30) GiB per trial; lower --payload or --events")
        }
    }

    /// What the options ask the measuring executable to plan (the names checked against
    /// what it describes).
    func planRequest() throws -> PlanRequest {
        let described = try Self.target().describe().description
        return PlanRequest(
            suite: suite,
            workloads: try Self.names(workloads, option: "workload", valid: described.workloadNames),
            schedulers: try Self.names(schedulers, option: "scheduler", valid: described.schedulerNames),
            strategies: try Self.names(strategies, option: "strategy", valid: described.selectableStrategyNames),
            producers: try Self.numbers(producers, option: "producers", within: Limits.producers),
            events: events,
            payloads: try Self.numbers(payload, option: "payload", within: Limits.payloadBytes),
            rates: try Self.numbers(rate, option: "rate", within: Limits.rateHz)
        )
    }

    /// The cases the measuring executable plans for these options, and what it skipped;
    /// asked once per process for the same request.
    func planned() throws -> (cases: [BenchCase], skipped: [PlanReply.Skip]) {
        let request = try planRequest()
        if let known = Self.plans.withLock({ $0[request] }) { return (known.cases, known.skipped) }
        let reply = try Self.target().plan(request)
        Self.plans.withLock { $0[request] = reply }
        return (reply.cases, reply.skipped)
    }

    private static let plans = Locked<[PlanRequest: PlanReply]>([:])

    /// `--shard`'s value; nil without the option.
    func shardChoice() throws -> Shard? { try Self.shard(shard) }

    /// A `--shard` option's value (`run`'s and `gate`'s): nil when not given; a usage error
    /// saying what is wrong with one that is not K/N.
    static func shard(_ given: String?) throws -> Shard? {
        do {
            return try given.map { try Shard(parsing: $0) }
        } catch BenchError.usage(let problem) {
            throw ValidationError(problem)
        }
    }

    /// The executable that plans and measures (`MeasuringExecutable.resolve()`).
    static func target() throws -> MeasuringExecutable { try MeasuringExecutable.resolve() }

    /// `--history`'s database; nil without the option.
    func historyLocation() throws -> HistoryLocation? { try Self.historyLocation(history) }

    /// A `--history` option's database (`run`'s and `merge`'s): nil when not given; a
    /// usage error saying what is wrong with one that cannot be a history.
    static func historyLocation(_ given: String?) throws -> HistoryLocation? {
        do {
            return try given.map { try HistoryLocation($0) }
        } catch BenchError.history(let location, let problem) {
            throw ValidationError("--history \(location): \(problem)")
        }
    }

    /// The measurement options these flags ask for.
    var options: RunOptions {
        var options = RunOptions()
        options.trials = trials
        options.warmup = warmup
        options.countAllocations = !noAllocations
        options.countInstructions = instructions
        options.countUnderRealTime = !noRealTimeCounting
        options.measureOverhead = measureOverhead
        options.isolate = isolate
        options.childTimeout = TimeInterval(childTimeout)
        return options
    }

    func run() throws {
        let (plan, skipped) = try planned()
        let shard = try shardChoice()
        let cases = shard?.select(plan) ?? plan
        if dryRun {
            for benchCase in cases { print(benchCase) }
            for skip in skipped { print("skipped \(skip)") }
            print("\(cases.count) cases\(shard.map { " (shard \($0) of a plan of \(plan.count))" } ?? ""), \(skipped.count) combinations skipped")
            return
        }

        let target = try Self.target()
        if instructions && !quiet { printError("run: " + RealTimeScheduling.countingScheduler(options)) }
        var workflow = RunWorkflow(
            target: target, cases: cases, options: options, directory: out.map { URL(fileURLWithPath: $0) },
            provenance: try target.runProvenance(), replaceExisting: overwrite, writeReport: report, history: try historyLocation(),
            shard: shard.map { ShardFile(kind: .run, shard: $0, plan: plan) })
        workflow.processes = processes
        let directory = workflow.directory
        let progress = ProgressRenderer(live: !quiet && isatty(STDERR_FILENO) == 1)
        let cancellation = CancellationToken()
        let interrupts = Interrupts.cancelOnInterrupt(
            cancellation, stopping: "stopping the current case at its next trial; it will not be kept",
            terminated: { "terminated: the cases finished so far are in \(directory.path)" })
        defer { interrupts.cancel() }
        let found: RunWorkflow.Outcome
        do {
            found = try workflow.execute(observer: progress, cancellation: cancellation)
        } catch BenchError.resultsExist(let path) {
            printError("error: \(path) holds another run's results; choose a new --out, or pass --overwrite to replace them")
            throw ExitStatus.error
        }
        progress.finish()

        let outcome = found.run
        if !noTable && !outcome.results.isEmpty {
            print(SummaryTable.render(outcome.results))
        }
        if outcome.writtenCases == 0 {
            printError("no results written to \(directory.path)" + (found.earlierFiles.isEmpty ? "" : " (the earlier files there are untouched)"))
        } else if !quiet || outcome.writeError != nil {
            printError(
                "results: \(directory.path)/\(ResultsFiles.resultsName), \(directory.path)/\(ResultsFiles.summaryName) "
                    + "(\(outcome.writtenCases) of \(cases.count) cases\(shard.map { " of shard \($0); `merge` joins it with the other shards" } ?? ""))")
        }
        let failures = outcome.correctnessFailures
        if !failures.isEmpty {
            printError(
                "error: correctness failure in \(failures.count) case(s): \(failures.map { "\($0.benchCase)" }.joined(separator: "; "))"
                    + (outcome.writtenCases > 0 ? "; what was violated: \(directory.path)/\(ResultsFiles.violationsName)" : ""))
        }
        for (benchCase, error) in outcome.errors { printError("error: \(benchCase): \(error)") }
        if let writeError = outcome.writeError { printError("error: \(writeError)") }
        if outcome.interrupted {
            let abandoned = outcome.abandonedCase.map { "; stopped \($0), not kept" } ?? ""
            printError("interrupted: kept the \(outcome.writtenCases) finished cases\(abandoned)")
        }
        var status = ExitStatus(outcome)
        switch found.report {
        case .success(let file): if !quiet { printError("report: \(file.path)") }
        case .failure(let error):
            printError("error: the report: \(error)")
            if status == .ok { status = .error }
        case nil: break
        }
        if let location = workflow.history, let step = found.history {
            switch step {
            case .added(let added):
                if !quiet { printError(HistoryCommand.describe(added, runID: workflow.provenance.runID, into: location)) }
            case .notAdded:
                printError("not added to the history \(location): only a run that finished cleanly is")
                throw status == .ok ? ExitStatus.error : status
            case .failed(let error):
                throw error
            }
        }
        if status != .ok { throw status }
    }
}
