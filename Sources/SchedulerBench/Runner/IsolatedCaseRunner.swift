import Foundation

/// `--isolate`: runs each case in a fresh child process of the same executable
/// (`schedbench run --case …`), so no heap, thread pool or JIT-warm state carries between
/// cases, and reads its results back from the child's results directory.
public struct IsolatedCaseRunner: Sendable {
    public var executable: String
    public var scratch: URL
    /// `valgrind`, for instruction-counting children (`InstructionCounter.findValgrind()`).
    public var valgrind: String?

    public init(executable: String = "/proc/self/exe", scratch: URL, valgrind: String? = nil) {
        self.executable = executable
        self.scratch = scratch
        self.valgrind = valgrind
    }

    /// `workload,scheduler,strategy,producers,events,payload_bytes,rate_hz` — the `--case` argument.
    public static func caseArgument(_ benchCase: BenchCase) -> String {
        [benchCase.workload.rawValue, benchCase.scheduler.rawValue, benchCase.strategy.rawValue,
         String(benchCase.producers), String(benchCase.events), String(benchCase.payloadBytes), String(benchCase.rateHz)]
            .joined(separator: ",")
    }

    /// Parses a `--case` argument (see `caseArgument`); the failure names the problem.
    public static func parseCase(_ text: String, suite: String) -> Result<BenchCase, WorkloadError> {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 else {
            return .failure(WorkloadError("--case '\(text)' needs 7 comma-separated fields: workload,scheduler,strategy,producers,events,payload_bytes,rate_hz"))
        }
        guard let workload = WorkloadName(rawValue: fields[0]) else { return .failure(WorkloadError("--case: unknown workload '\(fields[0])'")) }
        guard let scheduler = SchedulerName(rawValue: fields[1]) else { return .failure(WorkloadError("--case: unknown scheduler '\(fields[1])'")) }
        guard let strategy = StrategyName(rawValue: fields[2]) else { return .failure(WorkloadError("--case: unknown strategy '\(fields[2])'")) }
        let numbers = fields[3...].compactMap { Int($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 >= 0 }), numbers[0] > 0, numbers[1] > 0 else {
            return .failure(WorkloadError("--case '\(text)': producers and events must be positive integers, payload_bytes and rate_hz non-negative"))
        }
        return .success(BenchCase(suite: suite, workload: workload, scheduler: scheduler, strategy: strategy,
                                  producers: numbers[0], events: numbers[1], payloadBytes: numbers[2], rateHz: numbers[3]))
    }

    /// Runs `benchCase` in a child; with `counting`, only that counting trial: allocations
    /// in a child with `AllocationCounter.environment`, instructions in a child under callgrind.
    /// `collect` reads whatever else the child left in its directory before it is removed.
    func run(_ benchCase: BenchCase, options: RunOptions, counting: CountingTrial? = nil,
             collect: (URL) throws -> Void = { _ in }) throws -> CaseResult {
        let out = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        var arguments = ["run", "--suite", benchCase.suite, "--case", Self.caseArgument(benchCase),
                         "--trials", String(options.trials), "--warmup", String(options.warmup),
                         "--out", out.path, "--quiet", "--no-table"]
            + (options.countAllocations ? [] : ["--no-allocations"])
            + (options.countInstructions && counting == nil ? ["--instructions"] : [])
            + (counting.map { ["--counting-only", $0.rawValue] } ?? [])
            + (options.checking ? [] : ["--unchecked"])
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        switch counting {
        case .allocations:
            child.environment = ProcessInfo.processInfo.environment.merging(AllocationCounter.environment) { $1 }
        case .instructions:
            guard let valgrind else { throw WorkloadError("counting instructions needs valgrind on PATH (apt-get install valgrind)") }
            let dumps = out.appendingPathComponent("callgrind.out").path
            // valgrind runs the real binary: /proc/self/exe would name valgrind itself.
            let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: executable)) ?? executable
            let binary = try InstructionCounter.strippedCopy(of: real, in: scratch)
            arguments = InstructionCounter.valgrindArguments(output: dumps, executable: binary, arguments: arguments)
            child.executableURL = URL(fileURLWithPath: valgrind)
            child.environment = ProcessInfo.processInfo.environment.merging([InstructionCounter.outputVariable: dumps]) { $1 }
        case nil:
            break
        }
        child.arguments = arguments
        // The parent reports what the child measured; the child's own messages would repeat
        // it. Its stderr is kept to explain a failure.
        let errors = out.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = errorHandle
        try child.run()
        child.waitUntilExit()
        // Exit 3 (a correctness failure) still wrote its results; anything else but 0 did not.
        guard child.terminationStatus == 0 || child.terminationStatus == 3 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8))?
                .split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
            throw WorkloadError("child process exited with status \(child.terminationStatus)" + (said.isEmpty ? "" : ": \(said)"))
        }
        guard var result = try ResultsFiles.read(out.path).cases.first else {
            throw WorkloadError("isolated child wrote no results")
        }
        try collect(out)
        result.benchCase = benchCase
        return result
    }

    /// Instructions per event as a marginal cost: two children under callgrind count the
    /// case at half its events and at all of them; the difference in instructions over the
    /// difference in operations cancels setup and teardown (threads, subscriptions).
    /// Returns trial 0 with `instructions_per_event` and both children's violations.
    func countInstructions(_ benchCase: BenchCase, options: RunOptions) throws -> CaseResult {
        var half = benchCase
        half.events = max(1, benchCase.events / 2)
        var counts: [InstructionCounter.Count] = []
        var result = CaseResult(benchCase: benchCase, trials: [])
        for sized in [half, benchCase] {
            let child = try run(sized, options: options, counting: .instructions) { out in
                counts.append(try InstructionCounter.read(output: out.appendingPathComponent("callgrind.out").path))
            }
            for var record in child.trials {
                record.benchCase = benchCase
                result.addCounting(record)
            }
            result.violationSamples += child.violationSamples
        }
        let operations = counts[1].operations - counts[0].operations
        guard operations > 0, counts[1].instructions >= counts[0].instructions else {
            throw WorkloadError("cannot count instructions per event: \(counts[0].instructions) and \(counts[1].instructions) instructions "
                                + "for \(counts[0].operations) and \(counts[1].operations) operations at \(half.events) and \(benchCase.events) events")
        }
        result.addCounting(TrialRecord(benchCase: benchCase, trial: TrialRecord.countingTrial, metrics: [
            .instructionsPerEvent: Double(counts[1].instructions - counts[0].instructions) / Double(operations),
        ]))
        return result
    }
}
