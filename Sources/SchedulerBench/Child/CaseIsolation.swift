import BenchChild
import BenchModel
import Foundation

/// Runs one of a case's counting trials in a child process of this executable
/// (`ChildProcess`, `ChildRequest`):
/// - `countAllocations`: the allocation trial where jemalloc counts exactly (thread caches
///   off, `AllocationCounter.environment`);
/// - `countInstructions`: three trials a case under callgrind, every case of a run in one
///   child (`InstructionCounter`).
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

    /// Instructions per event as a marginal cost, counted twice in one process: the case
    /// runs at a tenth of its events, then twice at half of them. Each half's instructions
    /// less the tenth's, over its operations less the tenth's, is one count (setup and
    /// teardown, threads and subscriptions, cancel); `instructions_per_event` is their mean
    /// and `instructions_repeat_difference` how far apart they are (`repeatDifference`).
    /// The three trials run 1.1 times the case's events, as many as a tenth and a whole
    /// did. Returns trial 0 with both metrics and every trial's violations.
    func countInstructions(_ benchCase: BenchCase, options: RunOptions) throws -> CaseResult {
        let sized = sizedTrials([benchCase])
        let (reply, counts, name) = try countBatch(sized, options: options, observer: SilentObserver())
        return try Self.instructionsPerEvent(benchCase, sized.indices.map { (reply.outcomes[$0], counts[$0]) }, name)
    }

    /// The share of a case's events its smaller counting trial runs.
    static let smallerTrialDivisor = 10

    /// Counting trials a case: the smaller one, then the two that are counted.
    static let trialsPerCase = 3

    /// The most children that count at once unless the options say
    /// (`RunOptions.countingChildren`): valgrind runs a process's threads one at a time, so
    /// each child keeps one processor busy.
    static var countingChildren: Int { max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4)) }

    /// `countInstructions(_:options:)` for every case of `cases`, in as many children under
    /// callgrind as `countingChildren` (or the options) allow, which pay valgrind's
    /// start-up (about 5 s here) once each: the cases are cut into that many runs of
    /// consecutive cases, the same cut for the same cases on the same machine, so a gate's
    /// two sides count each case after the same others. In a child, each case's three trials
    /// run back to back (the second and third without a warmup of their own), each trial writing a
    /// dump of its own. A case the child could not count has its error. The cases of a
    /// child that failed (it died, or fell silent for `options.childTimeout`) are left out
    /// of the answer, to be counted alone. Throws `Interrupted` once `cancellation` is
    /// cancelled. `observer` hears each trial start (`trialStarted`, the counting trial of
    /// the case at the size it runs).
    func countInstructions(
        _ cases: [BenchCase], options: RunOptions, observer: any BenchObserver = SilentObserver()
    ) throws -> [BenchCase: Result<CaseResult, BenchError>] {
        guard !cases.isEmpty else { return [:] }
        let children = min(max(1, options.countingChildren ?? Self.countingChildren), cases.count)
        let chunks = (0..<children).map { index in
            Array(cases[(cases.count * index / children)..<(cases.count * (index + 1) / children)])
        }
        let answers = Locked([Result<[BenchCase: Result<CaseResult, BenchError>], Error>?](repeating: nil, count: children))
        DispatchQueue.concurrentPerform(iterations: children) { index in
            let answer = Result { () -> [BenchCase: Result<CaseResult, BenchError>] in
                let chunk = chunks[index]
                let (reply, counts, name) = try countBatch(sizedTrials(chunk), options: options, observer: observer)
                var results: [BenchCase: Result<CaseResult, BenchError>] = [:]
                for (position, benchCase) in chunk.enumerated() {
                    let first = Self.trialsPerCase * position
                    let trials = (first..<first + Self.trialsPerCase).map { (reply.outcomes[$0], counts[$0]) }
                    results[benchCase] = Result { try Self.instructionsPerEvent(benchCase, trials, name) }.mapError { BenchError($0) }
                }
                return results
            }
            answers.withLock { $0[index] = answer }
        }
        var results: [BenchCase: Result<CaseResult, BenchError>] = [:]
        for answer in answers.withLock({ $0 }) {
            switch answer {
            case .success(let counted)?: results.merge(counted) { first, _ in first }
            case .failure(let error as Interrupted)?: throw error
            case .failure(BenchError.toolMissing(let problem))?: throw BenchError.toolMissing(problem)
            case .failure?, nil: continue
            }
        }
        return results
    }

    /// Each case at a tenth of its events, then twice at half of them.
    private func sizedTrials(_ cases: [BenchCase]) -> [BenchCase] {
        cases.flatMap { benchCase -> [BenchCase] in
            var smaller = benchCase
            smaller.events = max(1, benchCase.events / Self.smallerTrialDivisor)
            var half = benchCase
            half.events = max(smaller.events + 1, benchCase.events / 2)
            return [smaller, half, half]
        }
    }

    /// Runs `sized` trials in one child under callgrind: its reply (one outcome a trial, in
    /// order), each trial's count (nil when callgrind wrote no dump for it) and its name.
    private func countBatch(
        _ sized: [BenchCase], options: RunOptions, observer: any BenchObserver
    ) throws -> (reply: ChildReply, counts: [UInt64?], name: String) {
        guard let valgrind else { throw BenchError.toolMissing("counting instructions needs valgrind on PATH (apt-get install valgrind)") }
        // valgrind runs the real binary without debug information: Debian 12's valgrind
        // 3.19 gives up on the DWARF 5 that Swift 6 writes.
        let binary = try InstructionCounter.strippedCopy(of: executable, in: scratch)
        let dumps = scratch.appendingPathComponent("callgrind-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dumps) }
        let output = dumps.appendingPathComponent("callgrind.out").path
        let child = ChildProcess(
            executable: valgrind,
            arguments: InstructionCounter.valgrindArguments(output: output, executable: binary, arguments: ["_child"]),
            environment: InstructionCounter.childEnvironment, name: executable)
        let reply = try child.run(
            ChildRequest(job: .counting(.instructions), cases: sized, options: options), observer: observer,
            idleTimeout: options.childTimeout, cancellation: cancellation)
        guard reply.outcomes.count == sized.count, zip(reply.outcomes, sized).allSatisfy({ $0.benchCase == $1 }) else {
            throw BenchError.childFailed(
                executable: child.name, problem: "replied with \(reply.outcomes.count) outcomes for \(sized.count) counting trials")
        }
        let counts = try InstructionCounter.counts(inDumpsOf: output)
        return (reply, sized.indices.map { counts[InstructionCounter.label(trial: $0)] }, child.name)
    }

    /// A case's result from its counting trials (`sizedTrials`: the smaller one, then the
    /// two counted).
    private static func instructionsPerEvent(
        _ benchCase: BenchCase, _ trials: [(ChildReply.CaseOutcome, UInt64?)], _ name: String
    ) throws -> CaseResult {
        var result = CaseResult(benchCase: benchCase, trials: [])
        var counts: [(instructions: UInt64, operations: Int)] = []
        for (outcome, instructions) in trials {
            if let error = outcome.error { throw error }
            guard let counted = outcome.result else {
                throw BenchError.childFailed(executable: name, problem: "replied with neither a result nor an error for \(outcome.benchCase)")
            }
            guard let operations = outcome.operations else {
                throw BenchError.childFailed(executable: name, problem: "the instruction-counting child reported no operation count")
            }
            guard let instructions else {
                throw BenchError.childFailed(executable: name, problem: "callgrind wrote no dump for \(outcome.benchCase)")
            }
            counts.append((instructions, operations))
            for var record in counted.trials {
                record.benchCase = benchCase
                result.addCounting(record)
            }
            result.violationSamples += counted.violationSamples
        }
        let smaller = counts[0]
        let perEvent = try counts.dropFirst().map { counted -> Double in
            let operations = counted.operations - smaller.operations
            guard operations > 0, counted.instructions >= smaller.instructions else {
                throw BenchError.caseCannotRun(
                    "cannot count instructions per event: \(smaller.instructions) and \(counted.instructions) instructions "
                        + "for \(smaller.operations) and \(counted.operations) operations at \(trials[0].0.benchCase.events) "
                        + "and \(trials[1].0.benchCase.events) events")
            }
            return Double(counted.instructions - smaller.instructions) / Double(operations)
        }
        result.addCounting(
            TrialRecord(
                benchCase: benchCase, trial: TrialRecord.countingTrial,
                metrics: [
                    .instructionsPerEvent: perEvent.reduce(0, +) / Double(perEvent.count),
                    .instructionsRepeatDifference: repeatDifference(perEvent),
                ]))
        return result
    }

    /// How far apart a case's counts in one process are: the largest less the smallest,
    /// over their mean (0 when they are equal or all zero). A count that is a property of
    /// the build repeats (the trampoline's exactly); one that moves within a process moves
    /// between processes too, and `Comparison` leaves it undecided. The reverse does not
    /// hold: a count can keep one level for a whole process and another in the next.
    static func repeatDifference(_ counts: [Double]) -> Double {
        guard let low = counts.min(), let high = counts.max() else { return 0 }
        let mean = counts.reduce(0, +) / Double(counts.count)
        return mean > 0 ? (high - low) / mean : 0
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
