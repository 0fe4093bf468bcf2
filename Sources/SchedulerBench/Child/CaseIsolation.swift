import BenchChild
import BenchModel
import Foundation

/// Runs one of a case's counting trials in a child process of this executable
/// (`ChildProcess`, `ChildRequest`):
/// - `countAllocations`: the allocation trial where jemalloc counts exactly (thread caches
///   off, `AllocationCounter.environment`);
/// - `countInstructions`: two trials a case in each of two children under callgrind, each
///   child counting a run of consecutive cases (`InstructionCounter`).
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

    /// Instructions per event as a marginal cost, counted once in each of two processes:
    /// in each, the case runs at a tenth of its events, then at half of them, and the
    /// half's instructions less the tenth's, over its operations less the tenth's, is one
    /// count (setup and teardown, threads and subscriptions, cancel).
    /// `instructions_per_event` is the mean of the two counts and
    /// `instructions_repeat_difference` how far apart they are (`repeatDifference`). The two
    /// children run one after the other. Returns the first trial with both metrics and
    /// every trial's violations.
    func countInstructions(_ benchCase: BenchCase, options: RunOptions) throws -> CaseResult {
        let sized = sizedTrials([benchCase])
        let processor = Self.processor(slot: 0, of: Self.countingProcessors(options))
        let processes = try (0..<Self.processesPerCase).map { _ in
            try countBatch(sized, options: options, processor: processor, observer: SilentObserver())
        }
        return try Self.instructionsPerEvent(
            benchCase, processes.map { process in sized.indices.map { (process.reply.outcomes[$0], process.counts[$0]) } },
            processes[0].name)
    }

    /// The share of a case's events its smaller counting trial runs.
    static let smallerTrialDivisor = 10

    /// Counting trials a case in each counting process: the smaller one, then the counted one.
    static let trialsPerCase = 2

    /// The processes that count each case, once each. A case's count can keep one level for
    /// a whole process and take another in the next (observe(on:) `reference` on `serial`:
    /// about 7,100 instructions an event in some processes, 8,450 in others, each within
    /// 0.4% of itself), so two counts made in one process could not show it, and a gate
    /// whose rounds fell on one level on one side and the other on the other side called an
    /// unchanged build 16% improved. Two processes a case show it as two counts apart.
    static let processesPerCase = 2

    /// The most children that count at once unless the options say
    /// (`RunOptions.countingChildren`): one for each processor this process may run on,
    /// at most 4. valgrind runs a process's threads one at a time, so each child keeps one
    /// processor busy.
    static var countingChildren: Int { max(1, min(Processors.allowed().count, 4)) }

    /// `countInstructions(_:options:)` for every case of `cases`, in children under
    /// callgrind, at most `countingChildren` (or the options' number) at a time, which pay
    /// valgrind's start-up (about 5 s here) once each. The cases are cut into runs of
    /// consecutive cases, one run for every `processesPerCase` children that may run at
    /// once (at least one), the same cut for the same cases on the same machine, so a
    /// gate's two sides count each case after the same others; each run is counted by
    /// `processesPerCase` children, each of its own. Each of the children that may run at
    /// once (a slot) keeps its children on one processor (`countingProcessors(_:)`,
    /// `processor(slot:of:)`). In a child, each case's two trials run
    /// back to back (the second without a warmup of its own), each trial writing a dump of
    /// its own. A case the children could not count has its error. The cases of a run that
    /// a child failed (it died, or fell silent for `options.childTimeout`) are left out of
    /// the answer, to be counted alone. Throws `Interrupted` once `cancellation` is
    /// cancelled. `observer` hears each trial start (`trialStarted`, the counting trial of
    /// the case at the size it runs).
    func countInstructions(
        _ cases: [BenchCase], options: RunOptions, observer: any BenchObserver = SilentObserver()
    ) throws -> [BenchCase: Result<CaseResult, BenchError>] {
        guard !cases.isEmpty else { return [:] }
        let slots = max(1, options.countingChildren ?? Self.countingChildren)
        let plan = Self.countingPlan(cases: cases.count, slots: slots)
        let chunks = plan.chunks.map { Array(cases[$0]) }
        typealias Counted = (reply: ChildReply, counts: [UInt64?], name: String)
        let answers = Locked([Result<Counted, Error>?](repeating: nil, count: plan.children.count))
        let next = Locked(0)
        let processors = Self.countingProcessors(options)
        DispatchQueue.concurrentPerform(iterations: min(slots, plan.children.count)) { slot in
            let processor = Self.processor(slot: slot, of: processors)
            while let index = next.withLock({ next -> Int? in
                guard next < plan.children.count else { return nil }
                defer { next += 1 }
                return next
            }) {
                let answer = Result {
                    try countBatch(sizedTrials(chunks[plan.children[index]]), options: options, processor: processor, observer: observer)
                }
                answers.withLock { $0[index] = answer }
            }
        }
        let answered = answers.withLock { $0 }
        var results: [BenchCase: Result<CaseResult, BenchError>] = [:]
        for (chunkIndex, chunk) in chunks.enumerated() {
            var processes: [Counted] = []
            for (index, run) in plan.children.enumerated() where run == chunkIndex {
                switch answered[index] {
                case .success(let counted)?: processes.append(counted)
                case .failure(let error as Interrupted)?: throw error
                case .failure(BenchError.toolMissing(let problem))?: throw BenchError.toolMissing(problem)
                case .failure?, nil: continue
                }
            }
            guard processes.count == Self.processesPerCase else { continue }
            for (position, benchCase) in chunk.enumerated() {
                let first = Self.trialsPerCase * position
                let trials = processes.map { process in
                    (first..<first + Self.trialsPerCase).map { (process.reply.outcomes[$0], process.counts[$0]) }
                }
                results[benchCase] = Result { try Self.instructionsPerEvent(benchCase, trials, processes[0].name) }.mapError { BenchError($0) }
            }
        }
        return results
    }

    /// How `countInstructions(_:options:observer:)` shares `cases` cases among children
    /// when `slots` may run at once: the runs of consecutive cases (one for every
    /// `processesPerCase` slots, at least one, at most one a case), and the children to
    /// start in order, each the index in `chunks` of the run it counts: every run
    /// `processesPerCase` times.
    static func countingPlan(cases: Int, slots: Int) -> (chunks: [Range<Int>], children: [Int]) {
        let runs = max(1, min(cases, slots / processesPerCase))
        let chunks = (0..<runs).map { index in (cases * index / runs)..<(cases * (index + 1) / runs) }
        return (chunks, chunks.indices.flatMap { Array(repeating: $0, count: processesPerCase) })
    }

    /// The processors counting children are confined to, a slot's children to one of them:
    /// the options' (`RunOptions.countingProcessors`), else those this process may run on.
    /// valgrind runs a child's threads one at a time, and a hand-off counted on one
    /// processor keeps one level of its count, where on any it took one of several.
    /// `subscribeOn.cycle` on `mainAsync`, standalone beside two busy loops: 39,540–40,114
    /// instructions an event with its two counts 0.38–1.82% apart over six runs; on one
    /// processor 39,603–39,686, 0.004–0.45% apart (docs/performance/journal.md, 2026-12-01,
    /// night). What it costs in time was not measured side by side: beside two busy loops a
    /// gate of the `instructions` suite took 144–256 s in the campaign confined, 151–181 s in
    /// an earlier one on any processor.
    static func countingProcessors(_ options: RunOptions) -> [Int] { options.countingProcessors ?? Processors.allowed() }

    /// The real-time priority counting children run at (`RealTimeScheduling`): its lowest
    /// when the options ask for it and this process may (`refusal` nil), else nil, the
    /// normal scheduler.
    static func countingPriority(_ options: RunOptions, refusal: String?) -> Int32? {
        options.countUnderRealTime && refusal == nil ? RealTimeScheduling.priority : nil
    }

    /// The processor counting slot `slot` confines its children to: `processors` in turn
    /// (nil when there are none).
    static func processor(slot: Int, of processors: [Int]) -> Int? { processors.isEmpty ? nil : processors[slot % processors.count] }

    /// Each case at a tenth of its events, then at half of them.
    private func sizedTrials(_ cases: [BenchCase]) -> [BenchCase] {
        cases.flatMap { benchCase -> [BenchCase] in
            var smaller = benchCase
            smaller.events = max(1, benchCase.events / Self.smallerTrialDivisor)
            var half = benchCase
            half.events = max(smaller.events + 1, benchCase.events / 2)
            return [smaller, half]
        }
    }

    /// Runs `sized` trials in one child under callgrind: its reply (one outcome a trial, in
    /// order), each trial's count (nil when callgrind wrote no dump for it) and its name.
    private func countBatch(
        _ sized: [BenchCase], options: RunOptions, processor: Int?, observer: any BenchObserver
    ) throws -> (reply: ChildReply, counts: [UInt64?], name: String) {
        guard let valgrind else { throw BenchError.toolMissing("counting instructions needs valgrind on PATH (apt-get install valgrind)") }
        // valgrind runs the real binary without debug information: Debian 12's valgrind
        // 3.19 gives up on the DWARF 5 that Swift 6 writes.
        let binary = try InstructionCounter.strippedCopy(of: executable, in: scratch)
        let dumps = scratch.appendingPathComponent("callgrind-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dumps) }
        let output = dumps.appendingPathComponent("callgrind.out").path
        var child = ChildProcess(
            executable: valgrind,
            arguments: InstructionCounter.valgrindArguments(output: output, executable: binary, arguments: ["_child"]),
            environment: InstructionCounter.childEnvironment, name: executable)
        child.processor = processor
        child.realTimePriority = Self.countingPriority(options, refusal: RealTimeScheduling.refusal)
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

    /// A case's result from its counting trials in each process (`sizedTrials`: the
    /// smaller one, then the counted one), each trial's outcome with its instructions.
    static func instructionsPerEvent(
        _ benchCase: BenchCase, _ processes: [[(ChildReply.CaseOutcome, UInt64?)]], _ name: String
    ) throws -> CaseResult {
        var result = CaseResult(benchCase: benchCase, trials: [])
        var perEvent: [Double] = []
        for trials in processes {
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
            let (smaller, counted) = (counts[0], counts[1])
            let operations = counted.operations - smaller.operations
            guard operations > 0, counted.instructions >= smaller.instructions else {
                throw BenchError.caseCannotRun(
                    "cannot count instructions per event: \(smaller.instructions) and \(counted.instructions) instructions "
                        + "for \(smaller.operations) and \(counted.operations) operations at \(trials[0].0.benchCase.events) "
                        + "and \(trials[1].0.benchCase.events) events")
            }
            perEvent.append(Double(counted.instructions - smaller.instructions) / Double(operations))
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

    /// How far apart a case's counts in its counting processes are: the largest less the
    /// smallest, over their mean (0 when they are equal or all zero). A count that is a
    /// property of the build repeats (the trampoline's exactly); one that moves between
    /// processes, within each or from one level to another, is left undecided by
    /// `Comparison`.
    static func repeatDifference(_ counts: [Double]) -> Double { Statistics.relativeRange(counts) }

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
