import ArgumentParser
import Dispatch
import Foundation
import SchedulerBench

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

    @Option(help: "Suite: quick, default or full.")
    var suite = "default"

    @Option(name: .customLong("workload"), help: ArgumentHelp("Workloads to run (see `schedbench list`).", valueName: "name"))
    var workloads: [String] = []

    @Option(name: .customLong("scheduler"), help: ArgumentHelp("Schedulers to run on.", valueName: "name"))
    var schedulers: [String] = []

    @Option(name: .customLong("strategy"), help: ArgumentHelp("Strategies to compare.", valueName: "name"))
    var strategies: [String] = []

    @Option(help: ArgumentHelp("Producer thread counts, e.g. 1,2,4,8.", valueName: "n,…"))
    var producers: [String] = []

    @Option(help: "Events (operations, ticks) per trial, replacing the suite's sizes.")
    var events: Int?

    @Option(help: ArgumentHelp("Payload sizes in bytes carried by each event.", valueName: "bytes,…"))
    var payload: [String] = []

    @Option(help: ArgumentHelp("Pacing rates in events per second, for paced workloads.", valueName: "hz,…"))
    var rate: [String] = []

    @Option(help: "Timed trials per case.")
    var trials = 5

    @Option(help: "Untimed warmup trials per case.")
    var warmup = 1

    @Option(help: "Results directory (default: results/<run-id>).")
    var out: String?

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

    @Flag(help: "Do not print the summary table.")
    var noTable = false

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func names<Name: RawRepresentable & CaseIterable>(_ values: [String], option: String) throws -> [Name]?
    where Name.RawValue == String {
        let given = split(values)
        guard !given.isEmpty else { return nil }
        return try given.map { value in
            guard let name = Name(rawValue: value) else {
                let valid = Name.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown \(option) '\(value)'; valid: \(valid)")
            }
            return name
        }
    }

    private static func numbers(_ values: [String], option: String, minimum: Int) throws -> [Int]? {
        let given = split(values)
        guard !given.isEmpty else { return nil }
        return try given.map { value in
            guard let number = Int(value), number >= minimum else {
                throw ValidationError("--\(option) '\(value)' is not an integer ≥ \(minimum)")
            }
            return number
        }
    }

    func validate() throws {
        guard Suite.named(suite) != nil else {
            throw ValidationError("unknown suite '\(suite)'; valid: \(Suite.all.map(\.name).joined(separator: ", "))")
        }
        guard trials >= 1 else { throw ValidationError("--trials \(trials) must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup \(warmup) must be 0 or more") }
        if let events, events < 1 { throw ValidationError("--events \(events) must be at least 1") }
        _ = try plan()
    }

    func plan() throws -> RunPlan {
        RunPlan(
            suite: Suite.named(suite)!,
            workloads: try Self.names(workloads, option: "workload"),
            schedulers: try Self.names(schedulers, option: "scheduler"),
            strategies: try Self.names(strategies, option: "strategy"),
            producers: try Self.numbers(producers, option: "producers", minimum: 1),
            events: events,
            payloads: try Self.numbers(payload, option: "payload", minimum: 0),
            rates: try Self.numbers(rate, option: "rate", minimum: 1)
        )
    }

    /// The measurement options these flags ask for.
    var options: RunOptions {
        var options = RunOptions()
        options.trials = trials
        options.warmup = warmup
        options.countAllocations = !noAllocations
        options.countInstructions = instructions
        options.measureOverhead = measureOverhead
        options.isolate = isolate
        return options
    }

    func run() throws {
        let (cases, skipped) = try plan().expand()
        if dryRun {
            for benchCase in cases { print(benchCase) }
            for skip in skipped { print("skipped \(skip)") }
            print("\(cases.count) cases, \(skipped.count) combinations skipped")
            return
        }
        guard !cases.isEmpty else {
            let reasons = skipped.map { "\n  skipped \($0)" }.joined()
            throw ValidationError("no cases to run with these options\(reasons)")
        }

        let provenance = Provenance.current()
        let directory = URL(fileURLWithPath: out ?? "results/\(provenance.runID)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let probe = directory.appendingPathComponent(".schedbench-write-test")
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            printError("error: cannot write to --out \(directory.path): \(error.localizedDescription)")
            throw ExitStatus.error
        }

        let progress = ProgressRenderer(live: !quiet && isatty(STDERR_FILENO) == 1)
        let cancellation = CancellationToken()
        let interrupts = Interrupts.stopAfterCurrentCase(cancellation)
        let run = try BenchRun(
            cases: cases, options: options, output: .init(directory: directory, provenance: provenance),
            observer: progress, cancellation: cancellation)
        let outcome = MainThreadDriver.run { run.execute() }
        interrupts.cancel()
        progress.finish()

        if !noTable && !outcome.results.isEmpty {
            print(SummaryTable.render(outcome.results))
        }
        if !quiet {
            printError(
                "results: \(directory.path)/\(ResultsFiles.resultsName), \(directory.path)/\(ResultsFiles.summaryName) (\(outcome.results.count) of \(cases.count) cases)"
            )
        }
        let failures = outcome.correctnessFailures
        if !failures.isEmpty {
            printError("error: correctness failure in \(failures.count) case(s): \(failures.map { "\($0.benchCase)" }.joined(separator: "; "))")
        }
        for (benchCase, error) in outcome.errors { printError("error: \(benchCase): \(error)") }
        if let writeError = outcome.writeError { printError("error: \(writeError)") }
        if outcome.interrupted { printError("interrupted: kept the \(outcome.results.count) finished cases") }
        let status = ExitStatus(outcome)
        if status != .ok { throw status }
    }
}
