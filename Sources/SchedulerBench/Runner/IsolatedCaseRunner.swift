import Foundation

/// `--isolate`: runs each case in a fresh child process of the same executable
/// (`schedbench run --case …`), so no heap, thread pool or JIT-warm state carries between
/// cases, and reads its results back from the child's results directory.
public struct IsolatedCaseRunner: Sendable {
    public var executable: String
    public var scratch: URL

    public init(executable: String = "/proc/self/exe", scratch: URL) {
        self.executable = executable
        self.scratch = scratch
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

    /// Runs `benchCase` in a child; with `allocationsOnly`, only its allocation-counting trial
    /// (the child then runs with `AllocationCounter.environment`).
    func run(_ benchCase: BenchCase, options: RunOptions, allocationsOnly: Bool = false) throws -> CaseResult {
        let out = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["run", "--suite", benchCase.suite, "--case", Self.caseArgument(benchCase),
                           "--trials", String(options.trials), "--warmup", String(options.warmup),
                           "--out", out.path, "--quiet", "--no-table"]
            + (options.countAllocations ? [] : ["--no-allocations"])
            + (allocationsOnly ? ["--allocations-only"] : [])
        if allocationsOnly {
            child.environment = ProcessInfo.processInfo.environment.merging(AllocationCounter.environment) { $1 }
        }
        // The parent reports what the child measured; the child's own messages would repeat it.
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        // Exit 3 (a correctness failure) still wrote its results; anything else but 0 did not.
        guard child.terminationStatus == 0 || child.terminationStatus == 3 else {
            throw WorkloadError("isolated child exited with status \(child.terminationStatus)")
        }
        guard var result = try ResultsFiles.read(out.path).cases.first else {
            throw WorkloadError("isolated child wrote no results")
        }
        result.benchCase = benchCase
        return result
    }
}
