import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `schedbench stress`: seeded, replayable races against the core's concurrency contracts.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Hunt races in the core or a registered scheduler: run stress scenarios with seeded perturbation and write stress.csv.",
        discussion: """
            Runs every scenario of the core (or those named), each in a child process, \
            splitting the budget evenly; with --scheduler NAME, the contract scenario \
            (scheduler.contract) against that registered scheduler instead; a scenario stops at its first violation and prints the command \
            that replays it. The same --seed and --iterations replay the same decisions. \
            Perturbation inside the core needs a build with the StressHooks trait \
            (swift build --traits StressHooks); without it the scenarios still run, with \
            spinning threads and their own random pauses only.

            Exit codes: 0 no violation; 3 a violation, hang or crash; 1 an error; 64 usage; \
            130 interrupted.
            """
    )

    @Option(name: .customLong("scenario"), help: ArgumentHelp("Scenarios to run (see `schedbench list`); default: all.", valueName: "name"))
    var scenarios: [String] = []

    @Option(
        help: ArgumentHelp(
            "A registered scheduler to hold to its contract (scenario scheduler.contract; see `list`).", valueName: "name"))
    var scheduler: String?

    @Option(parsing: .unconditional, help: "Seconds for the whole run, split across the scenarios (default 60, or unbounded with --iterations).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Iterations per scenario at most.")
    var iterations: Int?

    @Option(parsing: .unconditional, help: "Seed for every random decision (default: a fresh one, printed).")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Extra spinning threads that compete for the cores.")
    var threads = StressOptions.defaultSpinners

    @Option(parsing: .unconditional, help: "Seconds without progress that count as a hang.")
    var hangTimeout = StressOptions.defaultHangTimeout

    @Option(
        help: ArgumentHelp(
            "Perturb only these stress points of the core (names in `schedbench list`), or none; default: all.", valueName: "names"))
    var points: String?

    @Option(help: "Results directory (default: results/stress-<run-id>).")
    var out: String?

    @Option(help: "What to print on standard output: text (nothing but the files) or markdown (the tables).")
    var format: Format = .text

    @Flag(help: "No progress line and no line per passing scenario on stderr.")
    var quiet = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown
    }

    func validate() throws {
        let described = try MeasuringExecutable.resolve().describedForValidation()
        let registered = described.schedulers
        if let scheduler {
            guard let named = registered.first(where: { $0.name.rawValue == scheduler }) else {
                throw ValidationError("unknown --scheduler '\(scheduler)'; registered: \(registered.map(\.name.rawValue).joined(separator: ", "))")
            }
            if let refusal = named.stressRefusal { throw ValidationError("--scheduler \(refusal)") }
        }
        let offered = described.scenarios.map(\.name)
        let names = try RunCommand.split(scenarios, option: "scenario")
        for name in names where StressScenarioName(rawValue: name).map(offered.contains) != true {
            throw ValidationError("unknown scenario '\(name)'; valid: \(offered.map(\.rawValue).joined(separator: ", "))")
        }
        if scheduler != nil, let other = names.first(where: { $0 != StressScenarioName.schedulerContract.rawValue }) {
            throw ValidationError(
                "--scheduler holds a registered scheduler to its contract (scenario \(StressScenarioName.schedulerContract.rawValue)); "
                    + "--scenario \(other) stresses the core on schedulers of its own and takes no --scheduler")
        }
        if let duration, !(duration > 0 && duration <= Double(Limits.stressSeconds.upperBound)) {
            throw ValidationError("--duration \(duration) is outside 0 (exclusive)...\(Limits.stressSeconds.upperBound) seconds")
        }
        if let iterations, !Limits.stressIterations.contains(iterations) {
            throw ValidationError(
                "--iterations \(iterations) is outside \(Limits.stressIterations.lowerBound)...\(Limits.stressIterations.upperBound)")
        }
        if seed == 0 { throw ValidationError("--seed 0 is not a seed; give 1 or more") }
        guard Limits.stressThreads.contains(threads) else {
            throw ValidationError("--threads \(threads) is outside \(Limits.stressThreads.lowerBound)...\(Limits.stressThreads.upperBound)")
        }
        guard hangTimeout >= 0.5 && hangTimeout <= 600 else {
            throw ValidationError("--hang-timeout \(hangTimeout) is outside 0.5...600 seconds")
        }
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out '' names no directory") }
        _ = try pointNames(described)
        if let bug = ProcessInfo.processInfo.environment[StressResult.seededBugVariable], !bug.isEmpty, !described.seededBuild {
            // Such a build would run the scenarios without the bug and pass.
            throw ValidationError(
                "\(StressResult.seededBugVariable)='\(bug)' is set, but this build has no seeded bugs: build the catalogue with scripts/seeded-bugs.py build")
        }
        if let problem = FaultInjection.environmentProblem { throw ValidationError(problem) }
    }

    /// `--points` as names (empty for `none`); nil when not given. An unknown name is a usage error.
    func pointNames(_ described: RegistryDescription) throws -> [String]? {
        guard let points else { return nil }
        let names = points.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names == ["none"] { return [] }
        let valid = described.stressPoints.map(\.name)
        guard !names.isEmpty else { throw ValidationError("--points '\(points)' names no stress point; valid: none, \(valid.joined(separator: ", "))") }
        for name in names where !valid.contains(name) {
            throw ValidationError("unknown --points '\(name)'; valid: none, \(valid.joined(separator: ", "))")
        }
        return names
    }

    func run() throws {
        let target = try MeasuringExecutable.resolve()
        let described = try target.describe().description
        let provenance = try target.runProvenance()
        let names = try RunCommand.split(scenarios, option: "scenario").compactMap(StressScenarioName.init(rawValue:))
        let chosen = names.isEmpty ? StressScenarioName.defaults(targetingScheduler: scheduler != nil) : StressScenarioName.allCases.filter(names.contains)
        // A fresh seed is printed (and in the replay line); 0 is not a seed.
        let seed = self.seed ?? UInt64.random(in: 1...UInt64(Int64.max))
        let seconds = duration ?? (iterations == nil ? StressOptions.defaultRunSeconds : nil)
        let directory = URL(fileURLWithPath: out ?? "results/stress-\(provenance.runID)")
        let file = directory.appendingPathComponent(StressFile.name)
        let plan = StressRun.Plan(
            scenarios: chosen, seed: seed, seconds: seconds, iterations: iterations, spinners: threads, hangTimeout: hangTimeout,
            scheduler: scheduler.map(SchedulerName.init), points: try pointNames(described))
        let renderer = StressRenderer(live: !quiet && isatty(STDERR_FILENO) == 1, quiet: quiet)
        let cancellation = CancellationToken()
        let run = StressRun(
            plan: plan, target: target, description: described, output: .init(directory: directory, provenance: provenance), observer: renderer,
            cancellation: cancellation)
        let claim: DirectoryClaim?
        do {
            claim = try run.prepare()
        } catch BenchError.resultsExist(let path) {
            printError("error: \(path) holds another run's results; choose a new --out")
            throw ExitStatus.error
        }

        defer { withExtendedLifetime(claim) {} }
        let hooks = described.hooksCompiled ? "stress hooks compiled in" : "no stress hooks in this build (swift build --traits StressHooks adds them)"
        let bug = ProcessInfo.processInfo.environment[StressResult.seededBugVariable].flatMap { $0.isEmpty ? nil : ", seeded bug \($0)" } ?? ""
        printError(
            "stress: seed \(seed), \(chosen.count) scenarios, \(seconds.map { String(format: "%g s", $0) } ?? "\(iterations!) iterations each"); \(hooks)\(bug)"
        )

        let interrupts = Interrupts.cancelOnInterrupt(
            cancellation, stopping: "stopping the current scenario after its current iteration",
            terminated: {
                FileManager.default.fileExists(atPath: file.path)
                    ? "terminated: the scenarios finished so far are in \(file.path)" : "terminated before any scenario finished"
            })
        let outcome = run.execute()
        interrupts.cancel()
        renderer.finish()

        if !outcome.results.isEmpty && outcome.writeError == nil {
            if !quiet { printError("results: \(file.path) (\(outcome.results.count) of \(chosen.count) scenarios)") }
            for log in outcome.crashLogs { printError("backtrace of the crashed child: \(log.path)") }
        }
        if let writeError = outcome.writeError { printError("error: \(writeError)") }
        let writeFailed = outcome.writeError != nil
        if format == .markdown { print(StressFile.markdown(outcome.results)) }
        for (scenario, error) in outcome.errors { printError("error: \(scenario.rawValue): \(error)") }
        let failures = outcome.failures
        if !failures.isEmpty {
            printError("error: \(failures.count) scenario(s) failed: \(failures.map(\.scenario.rawValue).joined(separator: ", ")) (seed \(seed))")
            throw ExitStatus.correctnessFailure
        }
        if !outcome.errors.isEmpty || writeFailed { throw ExitStatus.error }
        if outcome.interrupted {
            printError("interrupted: kept the \(outcome.results.count) finished scenarios" + (outcome.results.isEmpty ? "" : " in \(file.path)"))
            throw ExitStatus.interrupted
        }
    }
}
