import BenchAnalysis
import BenchChild
import BenchModel
import Foundation

/// A `schedbench stress` run: scenarios one after another, each in a child process of the
/// measuring executable (so a crash or a hang in one is reported, with its replay command,
/// and the rest still run), each with its share of the budget.
package struct StressRun: Sendable {
    /// What a run asks for.
    package struct Plan: Sendable {
        package var scenarios: [StressScenarioName]
        package var seed: UInt64
        /// The whole run's budget, split evenly; nil when only `iterations` bounds it.
        package var seconds: Double?
        package var iterations: Int?
        package var spinners: Int
        package var hangTimeout: Double
        /// The registered scheduler `scheduler.contract` stresses; nil: built-ins.
        package var scheduler: SchedulerName?
        /// The stress points perturbation is limited to; nil: all.
        package var points: [String]?

        package init(
            scenarios: [StressScenarioName], seed: UInt64, seconds: Double?, iterations: Int?, spinners: Int = StressOptions.defaultSpinners,
            hangTimeout: Double = StressOptions.defaultHangTimeout, scheduler: SchedulerName? = nil, points: [String]? = nil
        ) {
            self.scheduler = scheduler
            self.points = points
            self.scenarios = scenarios
            self.seed = seed
            self.seconds = seconds
            self.iterations = iterations
            self.spinners = spinners
            self.hangTimeout = hangTimeout
        }

        /// One scenario's options: its share of the budget.
        package var scenarioOptions: StressOptions {
            StressOptions(
                seed: seed, seconds: seconds.map { $0 / Double(max(1, scenarios.count)) }, iterations: iterations, spinners: spinners,
                hangTimeout: hangTimeout, scheduler: scheduler, points: points)
        }
    }

    /// What a run found.
    package struct Outcome: Sendable {
        package var results: [StressResult] = []
        /// Scenarios that could not run at all (the child could not start).
        package var errors: [(StressScenarioName, BenchError)] = []
        package var interrupted = false
        /// The crash logs written beside `stress.csv`.
        package var crashLogs: [URL] = []
        /// Why `stress.csv` could not be written, when it could not.
        package var writeError: BenchError?

        /// Scenarios with a violation, a hang or a crash.
        package var failures: [StressResult] { results.filter { !$0.passed } }
    }

    /// Where a stress run's files go, and the provenance they carry.
    package struct Output: Sendable {
        package var directory: URL
        package var provenance: Provenance

        package init(directory: URL, provenance: Provenance) {
            self.directory = directory
            self.provenance = provenance
        }
    }

    package var plan: Plan
    /// The executable whose `_child` runs the scenarios.
    package var target: MeasuringExecutable
    /// What it says of itself: the checks of each scenario, whether it has stress points.
    package var description: RegistryDescription
    /// Where `stress.csv` (and crash logs) go: written after every scenario, so what
    /// finished is on disk whenever the run ends.
    package var output: Output?
    package var observer: any BenchObserver
    /// Once cancelled, the scenario in progress stops at the end of its current iteration
    /// (its child is asked to, with SIGUSR1) and keeps what it found; no further one starts.
    package var cancellation: CancellationToken

    package init(
        plan: Plan, target: MeasuringExecutable, description: RegistryDescription, output: Output? = nil,
        observer: any BenchObserver = SilentObserver(), cancellation: CancellationToken = CancellationToken()
    ) {
        self.plan = plan
        self.target = target
        self.description = description
        self.output = output
        self.observer = observer
        self.cancellation = cancellation
    }

    /// Checks, before any scenario runs (a bad output must not cost the budget), that the
    /// output can be kept: no `stress.csv` of another run there (`BenchError.resultsExist`),
    /// a directory that can be written and that no other process is writing to. Returns
    /// the claim on the directory, to hold until the run ends; nil without `output`.
    package func prepare() throws -> DirectoryClaim? {
        guard let output else { return nil }
        let file = output.directory.appendingPathComponent(StressFile.name)
        if FileManager.default.fileExists(atPath: file.path) { throw BenchError.resultsExist(path: file.path) }
        try ResultsFiles.prepare(output.directory)
        return try DirectoryClaim(output.directory)
    }

    /// Runs the scenarios, one child each (call `prepare()` first when writing files).
    package func execute() -> Outcome {
        var outcome = Outcome()
        let options = plan.scenarioOptions
        // Children inherit the disposition: ignored until a stress child listens for it, so a
        // request to stop that comes before then cannot kill the child.
        signal(ChildChannel.stopSignal, SIG_IGN)
        for (index, scenario) in plan.scenarios.enumerated() {
            if cancellation.isCancelled {
                outcome.interrupted = true
                break
            }
            observer.benchEvent(.scenarioStarted(scenario, index: index + 1, count: plan.scenarios.count, seed: plan.seed))
            do {
                var result = try runInChild(scenario, options)
                if cancellation.isCancelled && result.passed { result.interruptedAfter = result.iterations }
                outcome.results.append(result)
                write(&outcome)
                observer.benchEvent(.scenarioFinished(result))
            } catch {
                outcome.errors.append((scenario, BenchError(error)))
            }
            if cancellation.isCancelled { outcome.interrupted = true }
        }
        return outcome
    }

    /// Writes everything found so far (atomically), when the run has an output.
    private func write(_ outcome: inout Outcome) {
        guard let output else { return }
        do {
            outcome.crashLogs = try StressFile.write(outcome.results, provenance: output.provenance, to: output.directory)
            outcome.writeError = nil
        } catch {
            outcome.writeError = BenchError(error)
        }
    }

    /// How much of a crashed child's standard error a result keeps: a backtrace of every
    /// thread of a scenario with a few dozen threads fits.
    package static let keptCrashOutput = 1 << 20

    /// The Swift runtime's backtracer, for a child that crashes: every thread, plain text,
    /// the crashed thread's registers and the images the frames mention, with function
    /// names but no source lines (`symbolicate=fast`: full symbolication of a release
    /// build's threads took about two minutes here). (`threads` takes `all` or `crashed`,
    /// and the preset goes first: a later preset resets it.)
    static let backtraceEnvironment = [
        "SWIFT_BACKTRACE":
            "enable=yes,preset=full,threads=all,registers=crashed,images=mentioned,symbolicate=fast,interactive=no,color=no"
    ]

    /// Runs `scenario` in a child; a child that dies is the scenario's `crash`, at the
    /// iteration it had started last, with the child's backtrace in `crashLog`.
    private func runInChild(_ scenario: StressScenarioName, _ options: StressOptions) throws -> StressResult {
        let tracker = IterationTracker(forwardingTo: observer)
        let child = ChildProcess(binary: target.path, environment: Self.backtraceEnvironment, keptStandardError: Self.keptCrashOutput)
        // The child's own watchdog reports hangs; this limit is for a child that cannot.
        let limit = (options.seconds ?? 3_600) + options.hangTimeout + 120
        let started = Date()
        do {
            let reply = try child.run(
                ChildRequest(job: .stress(scenario, options), cases: [], options: RunOptions()), observer: tracker, timeout: limit,
                stopping: cancellation)
            if let failure = reply.failure { throw failure }
            guard let result = reply.stress else {
                throw BenchError.childFailed(executable: child.name, problem: "replied to a stress request without a stress result")
            }
            return result
        } catch BenchError.childFailed(_, let problem) where tracker.lastIteration != nil {
            // It started and then died: the scenario crashed it.
            var result = StressResult(
                scenario: scenario, checks: description.scenarios.first { $0.name == scenario }?.checks ?? [.crash], seed: options.seed,
                hooksCompiled: description.hooksCompiled, spinners: options.spinners,
                seededBug: ProcessInfo.processInfo.environment[StressResult.seededBugVariable])
            result.scheduler = options.scheduler
            result.points = options.points
            let iteration = tracker.lastIteration!
            result.iterations = iteration + 1
            result.durationSeconds = Date().timeIntervalSince(started)
            result.record(StressViolation(kind: .crash, iteration: iteration, detail: problem), atSecond: result.durationSeconds)
            result.crashLog = child.standardError.text
            return result
        }
    }
}

/// Forwards a stress child's events and remembers the last iteration it started.
private final class IterationTracker: BenchObserver, Sendable {
    private let observer: any BenchObserver
    private let last = Locked<Int?>(nil)

    init(forwardingTo observer: any BenchObserver) { self.observer = observer }

    var lastIteration: Int? { last.withLock { $0 } }

    func benchEvent(_ event: BenchEvent) {
        if case .stressIteration(_, let iteration) = event { last.withLock { $0 = iteration } }
        observer.benchEvent(event)
    }
}
