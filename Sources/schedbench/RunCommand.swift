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

    @Option(help: .hidden)
    var countingOnly: String?

    @Flag(help: .hidden)
    var unchecked = false

    @Flag(help: "Do not print the summary table.")
    var noTable = false

    @Option(help: .hidden)
    var `case`: String?

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func names<Name: RawRepresentable & CaseIterable>(_ values: [String], option: String) throws -> [Name]? where Name.RawValue == String {
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
        if let countingOnly, CountingTrial(rawValue: countingOnly) == nil {
            throw ValidationError("unknown --counting-only '\(countingOnly)'; valid: allocations, instructions")
        }
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

    func run() throws {
        let (cases, skipped) = try expandCases()
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
            throw ExitCode(1)
        }

        var options = RunOptions()
        options.trials = trials
        options.warmup = warmup
        options.countAllocations = !noAllocations
        options.countingOnly = countingOnly.flatMap(CountingTrial.init(rawValue:))
        options.checking = !unchecked
        options.countInstructions = instructions
        let valgrind = InstructionCounter.findValgrind()
        if instructions && valgrind == nil {
            printError("error: --instructions needs valgrind on PATH (apt-get install valgrind)")
            throw ExitCode(1)
        }
        options.measureOverhead = measureOverhead
        let isolation = isolate ? IsolatedCaseRunner(scratch: directory.appendingPathComponent(".children")) : nil
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        let interrupts = Self.handleInterrupts(quiet: quiet)

        let run = BenchRun(cases: cases, options: options, directory: directory, provenance: provenance,
                           showProgress: showProgress, isolation: isolation, valgrind: valgrind)
        let outcome = MainThreadDriver.run { run.execute() }
        interrupts.cancel()
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(".children"))

        if !noTable && !outcome.results.isEmpty {
            print(SummaryTable.render(outcome.results))
        }
        if !quiet {
            printError("results: \(directory.path)/\(ResultsFiles.resultsName), \(directory.path)/\(ResultsFiles.summaryName) (\(outcome.results.count) of \(cases.count) cases)")
        }
        if !outcome.failedCases.isEmpty {
            printError("error: correctness failure in \(outcome.failedCases.count) case(s): \(outcome.failedCases.map { "\($0.benchCase)" }.joined(separator: "; "))")
            throw ExitCode(3)
        }
        if !outcome.errors.isEmpty {
            for error in outcome.errors { printError("error: \(error)") }
            throw ExitCode(1)
        }
        if outcome.interrupted {
            printError("interrupted: kept the \(outcome.results.count) finished cases")
            throw ExitCode(130)
        }
    }

    private func expandCases() throws -> ([BenchCase], [RunPlan.Skip]) {
        if let spec = `case` {
            switch IsolatedCaseRunner.parseCase(spec, suite: suite) {
            case .success(let benchCase): return ([benchCase], [])
            case .failure(let error): throw ValidationError(error.description)
            }
        }
        return try plan().expand()
    }

    /// First Ctrl-C: finish the current case, write, exit 130. Second: exit at once.
    private static func handleInterrupts(quiet: Bool) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if BenchRun.interruptRequested.exchange(true, ordering: .relaxed) {
                _exit(130)
            }
            printError("\ninterrupt: stopping after the current case (Ctrl-C again to quit now)")
        }
        source.resume()
        return source
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
