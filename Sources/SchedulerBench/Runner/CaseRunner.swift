import Foundation
import RxSchedulers

/// Runs one case: warmup, timed trials with the process collectors around each, then the
/// counting trials (allocations; instructions when asked), recorded together as trial 0.
/// Collectors read outside the timed region: getrusage and the thread/RSS reads happen
/// before and after the trial, the thread sampler wakes every 10 ms.
public struct CaseRunner {
    public var options: RunOptions
    /// Runs the counting trials in child processes: allocations when this process cannot
    /// count them exactly, instructions (`options.countInstructions`) always.
    public var countingChild: IsolatedCaseRunner?
    /// Called before each trial: (trial, of) — trial 0 is a counting trial.
    public var onTrial: (Int, Int) -> Void = { _, _ in }

    public init(options: RunOptions, countingChild: IsolatedCaseRunner? = nil) {
        self.options = options
        self.countingChild = countingChild
    }

    public func run(_ benchCase: BenchCase) throws -> CaseResult {
        let workload = Workloads.named(benchCase.workload)
        var records: [TrialRecord] = []
        var samples: [String] = []
        var warmupViolations = 0

        for _ in 0..<options.warmup {
            let report = InvariantReport()
            _ = try workload.runTrial(benchCase, invariants: report, checking: options.checking)
            warmupViolations += report.count
            samples += report.descriptions
            _ = waitForResources(atMost: Resources.total)
        }

        if let counting = options.countingOnly {
            let (record, descriptions) = try countingTrial(counting, workload, benchCase)
            records += record.map { [$0] } ?? []
            samples += descriptions
            return CaseResult(benchCase: benchCase, trials: records, violationSamples: Array(samples.prefix(InvariantReport.keptDescriptions)))
        }

        var overheadPairs: [(on: Double, off: Double)] = []
        for trial in 1...options.trials {
            onTrial(trial, options.trials)
            // The overhead pair's bare trial runs before the measured one in odd trials and
            // after it in even ones, so neither always has the warmer start.
            var bareNanos: Double?
            let bareFirst = trial % 2 == 1
            if options.measureOverhead && bareFirst { bareNanos = try bareTrial(workload, benchCase) }
            let report = InvariantReport()
            var metrics = try measuredTrial(workload, benchCase, report)
            if options.measureOverhead && !bareFirst { bareNanos = try bareTrial(workload, benchCase) }
            // Violations seen during warmup count against the first timed trial.
            let violations = report.count + (trial == 1 ? warmupViolations : 0)
            metrics[.invariantViolations] = Double(violations)
            if let off = bareNanos, let on = metrics[.nsPerEvent] { overheadPairs.append((on, off)) }
            samples += report.descriptions
            records.append(TrialRecord(benchCase: benchCase, trial: trial, metrics: metrics))
        }
        var result = CaseResult(benchCase: benchCase, trials: records)
        result.overhead = HarnessOverhead(pairs: overheadPairs)

        if options.countAllocations {
            onTrial(TrialRecord.countingTrial, options.trials)
            if AllocationCounter.isExact {
                let (record, descriptions) = try countingTrial(.allocations, workload, benchCase)
                if let record { result.addCounting(record) }
                samples += descriptions
            } else if let countingChild {
                let counted = try countingChild.run(benchCase, options: options, counting: .allocations)
                counted.trials.forEach { result.addCounting($0) }
                samples += counted.violationSamples
            }
        }
        if options.countInstructions, let countingChild {
            onTrial(TrialRecord.countingTrial, options.trials)
            let counted = try countingChild.countInstructions(benchCase, options: options)
            counted.trials.forEach { result.addCounting($0) }
            samples += counted.violationSamples
            if options.measureOverhead {
                var unchecked = options
                unchecked.checking = false
                let bare = try countingChild.countInstructions(benchCase, options: unchecked)
                if let on = counted.values(.instructionsPerEvent).first, let off = bare.values(.instructionsPerEvent).first, off > 0 {
                    result.instructionOverhead = on / off - 1
                }
            }
        }
        result.violationSamples = Array(samples.prefix(InvariantReport.keptDescriptions))
        return result
    }

    /// One untimed counting trial in this process: allocations (this process must count
    /// exactly, or the metrics are left out rather than guessed — as under ThreadSanitizer)
    /// or instructions (this process must run under callgrind).
    private func countingTrial(_ counting: CountingTrial, _ workload: any Workload, _ benchCase: BenchCase) throws -> (TrialRecord?, [String]) {
        switch counting {
        case .allocations:
            guard AllocationCounter.isExact else { return (nil, []) }
            return try allocationTrial(workload, benchCase)
        case .instructions:
            guard InstructionCounter.isActive else {
                throw WorkloadError("counting instructions needs the process to run under schedbench's callgrind child")
            }
            return try instructionTrial(workload, benchCase)
        }
    }

    /// A trial with checkers and collectors off (for `measureOverhead`), settled like a
    /// measured one so the next trial does not compete with its teardown; its ns/event.
    private func bareTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> Double? {
        let resourcesBefore = Resources.total
        let bare = try workload.runTrial(benchCase, invariants: InvariantReport(), checking: false)
        _ = waitForResources(atMost: resourcesBefore)
        return Self.throughput(bare)[.nsPerEvent]
    }

    /// The child's side of `IsolatedCaseRunner.countInstructions`: one trial with callgrind's
    /// instrumentation on.
    private func instructionTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> (TrialRecord?, [String]) {
        let report = InvariantReport()
        _ = try InstructionCounter.instrument { try workload.runTrial(benchCase, invariants: report, checking: options.checking) }
        _ = waitForResources(atMost: Resources.total)
        let record = TrialRecord(benchCase: benchCase, trial: TrialRecord.countingTrial, metrics: [
            .invariantViolations: Double(report.count),
        ])
        return (record, report.descriptions)
    }

    /// One untimed trial between two allocation snapshots (this process must count exactly).
    private func allocationTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> (TrialRecord?, [String]) {
        let report = InvariantReport()
        let before = AllocationCounter.snapshot()
        let outcome = try workload.runTrial(benchCase, invariants: report, checking: options.checking)
        let after = AllocationCounter.snapshot()
        _ = waitForResources(atMost: Resources.total)
        guard let before, let after, outcome.operations > 0 else { return (nil, report.descriptions) }
        let counted = after - before
        let record = TrialRecord(benchCase: benchCase, trial: TrialRecord.countingTrial, metrics: [
            .allocsPerEvent: Double(counted.requests) / Double(outcome.operations),
            .bytesPerEvent: Double(counted.bytes) / Double(outcome.operations),
            .invariantViolations: Double(report.count),
        ])
        return (record, report.descriptions)
    }

    private func measuredTrial(_ workload: any Workload, _ benchCase: BenchCase, _ report: InvariantReport) throws -> [Metric: Double] {
        let resourcesBefore = Resources.total
        ProcessStatus.resetPeakResidentSize()
        let sampler = ThreadSampler()
        sampler.start()
        let usageBefore = ResourceUsage.current()
        let outcome = try workload.runTrial(benchCase, invariants: report, checking: true)
        let usage = ResourceUsage.current() - usageBefore
        let threadsPeak = sampler.stop()
        let leaked = waitForResources(atMost: resourcesBefore)
        let status = ProcessStatus.current()

        var metrics = Self.throughput(outcome)
        metrics.merge(outcome.latency?.metrics ?? [:]) { $1 }
        metrics.merge(outcome.metrics) { $1 }
        metrics[.cpuUser] = usage.userSeconds
        metrics[.cpuSys] = usage.systemSeconds
        metrics[.ctxVoluntary] = Double(usage.voluntarySwitches)
        metrics[.ctxInvoluntary] = Double(usage.involuntarySwitches)
        metrics[.threadsPeak] = Double(threadsPeak)
        if let status {
            metrics[.threadsEnd] = Double(status.threads)
            metrics[.rssPeak] = Double(status.peakResidentBytes)
        }
        metrics[.resourcesLeaked] = Double(leaked)
        return metrics
    }

    static func throughput(_ outcome: TrialOutcome) -> [Metric: Double] {
        let seconds = Double(outcome.elapsedNanos) / 1e9
        var metrics: [Metric: Double] = [.wallTime: seconds]
        if outcome.operations > 0, outcome.elapsedNanos > 0 {
            metrics[.eventsPerSec] = Double(outcome.operations) / seconds
            metrics[.nsPerEvent] = Double(outcome.elapsedNanos) / Double(outcome.operations)
        }
        return metrics
    }

    /// Waits up to `leakGrace` for `Resources.total` to fall back to `baseline` (teardown on
    /// other queues may still be running) and returns how many resources stayed alive.
    private func waitForResources(atMost baseline: Int32) -> Int {
        let deadline = Date().addingTimeInterval(options.leakGrace)
        while Resources.total > baseline && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        return max(0, Int(Resources.total - baseline))
    }
}
