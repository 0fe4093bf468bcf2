import BenchChild
import BenchModel
import Foundation

/// Runs one of a case's counting trials in a child process of this executable
/// (`ChildProcess`, `ChildRequest`):
/// - `countAllocations`: the allocation trial where jemalloc counts exactly (thread caches
///   off, `AllocationCounter.environment`);
/// - `countInstructions`: two trials under callgrind (`InstructionCounter`).
struct CaseIsolation: Sendable {
    /// The schedbench binary children run (this one, unless a test says otherwise).
    var executable: String = ChildProcess.currentExecutable
    /// Where instruction-counting children leave their dumps (and the stripped binary).
    var scratch: URL
    /// `valgrind`, for instruction-counting children.
    var valgrind: String?
    /// Once cancelled, a running child is killed and its work throws `Interrupted`.
    var cancellation: CancellationToken?

    /// The allocation trial, in a child that counts exactly.
    func countAllocations(_ benchCase: BenchCase, options: RunOptions) throws -> CaseResult {
        let child = ChildProcess(binary: executable, environment: AllocationCounter.environment)
        let reply = try child.run(
            ChildRequest(job: .counting(.allocations), cases: [benchCase], options: options), timeout: options.childTimeout,
            cancellation: cancellation)
        return try Self.single(reply, benchCase, child.name).result
    }

    /// Instructions per event as a marginal cost: two children under callgrind count the
    /// case at half its events and at all of them; the difference in instructions over the
    /// difference in operations cancels setup and teardown (threads, subscriptions).
    /// Returns trial 0 with `instructions_per_event` and both children's violations.
    func countInstructions(_ benchCase: BenchCase, options: RunOptions) throws -> CaseResult {
        guard let valgrind else { throw BenchError.toolMissing("counting instructions needs valgrind on PATH (apt-get install valgrind)") }
        // valgrind runs the real binary without debug information: Debian 12's valgrind
        // 3.19 gives up on the DWARF 5 that Swift 6 writes.
        let binary = try InstructionCounter.strippedCopy(of: executable, in: scratch)
        var half = benchCase
        half.events = max(1, benchCase.events / 2)
        var counts: [(instructions: UInt64, operations: Int)] = []
        var result = CaseResult(benchCase: benchCase, trials: [])
        for sized in [half, benchCase] {
            let dump = scratch.appendingPathComponent("callgrind-\(UUID().uuidString).out").path
            defer { try? FileManager.default.removeItem(atPath: dump) }
            let child = ChildProcess(
                executable: valgrind,
                arguments: InstructionCounter.valgrindArguments(output: dump, executable: binary, arguments: ["_child"]),
                environment: [:], name: executable)
            let reply = try child.run(
                ChildRequest(job: .counting(.instructions), cases: [sized], options: options), timeout: options.childTimeout,
                cancellation: cancellation)
            let counted = try Self.single(reply, sized, child.name)
            guard let operations = counted.operations else {
                throw BenchError.childFailed(executable: executable, problem: "the instruction-counting child reported no operation count")
            }
            counts.append((try InstructionCounter.instructions(inDump: dump), operations))
            for var record in counted.result.trials {
                record.benchCase = benchCase
                result.addCounting(record)
            }
            result.violationSamples += counted.result.violationSamples
        }
        let operations = counts[1].operations - counts[0].operations
        guard operations > 0, counts[1].instructions >= counts[0].instructions else {
            throw BenchError.caseCannotRun(
                "cannot count instructions per event: \(counts[0].instructions) and \(counts[1].instructions) instructions "
                    + "for \(counts[0].operations) and \(counts[1].operations) operations at \(half.events) and \(benchCase.events) events")
        }
        result.addCounting(
            TrialRecord(
                benchCase: benchCase, trial: TrialRecord.countingTrial,
                metrics: [
                    .instructionsPerEvent: Double(counts[1].instructions - counts[0].instructions) / Double(operations)
                ]))
        return result
    }

    /// The one case a single-case reply must hold, or the error the child reported for it.
    private static func single(_ reply: ChildReply, _ benchCase: BenchCase, _ name: String) throws -> (result: CaseResult, operations: Int?) {
        guard reply.outcomes.count == 1, let outcome = reply.outcomes.first, outcome.benchCase == benchCase else {
            throw BenchError.childFailed(executable: name, problem: "replied with \(reply.outcomes.count) outcomes for one case")
        }
        if let error = outcome.error { throw error }
        guard let result = outcome.result else {
            throw BenchError.childFailed(executable: name, problem: "replied with neither a result nor an error for \(benchCase)")
        }
        return (result, outcome.operations)
    }
}
