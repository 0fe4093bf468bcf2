import BenchModel
import Foundation
import RxSchedulers

/// Runs one case in this process: warmup, timed trials with the process collectors around
/// each, then the counting trials (allocations; instructions when asked), recorded together
/// as trial 0. Collectors read outside the timed region: getrusage and the thread/RSS reads
/// happen before and after the trial, the thread sampler wakes every 10 ms.
struct CaseRunner {
    var options: RunOptions
    /// Runs the counting trials in child processes: allocations when this process cannot
    /// count them exactly, instructions (`options.countInstructions`) always.
    var counting: CaseIsolation?
    /// Cases whose instructions were counted already (`CaseIsolation.countInstructions` of
    /// a whole run); the others are counted one by one.
    var instructionCounts: [BenchCase: Result<CaseResult, BenchError>] = [:]
    /// Hears `trialStarted` before each trial.
    var observer: any BenchObserver = SilentObserver()
    /// Checked before every trial (warmup, timed, counting): once cancelled, `run` throws
    /// `Interrupted` and the case's trials so far are dropped. A trial itself is bounded
    /// (`Limits`): at most 10 million events, or an hour when paced.
    var cancellation: CancellationToken

    init(
        options: RunOptions, counting: CaseIsolation? = nil, observer: any BenchObserver = SilentObserver(),
        cancellation: CancellationToken = CancellationToken()
    ) {
        self.options = options
        self.counting = counting
        self.observer = observer
        self.cancellation = cancellation
    }

    /// Throws `Interrupted` once the run has been cancelled.
    private func continueUnlessCancelled() throws {
        if cancellation.isCancelled { throw Interrupted() }
    }

    func run(_ benchCase: BenchCase) throws -> CaseResult {
        let workload = Workloads.named(benchCase.workload)
        var records: [TrialRecord] = []
        try prepareValidationSlowdown(workload, benchCase)
        var (warmupViolations, samples) = try warmup(workload, benchCase)

        var overheadPairs: [(on: Double, off: Double)] = []
        var caseLatency: LatencyRecorder?
        for trial in 1...options.trials {
            try continueUnlessCancelled()
            observer.benchEvent(.trialStarted(benchCase, trial: trial, of: options.trials))
            // The overhead pair's bare trial runs before the measured one in odd trials and
            // after it in even ones, so neither always has the warmer start.
            var bareNanos: Double?
            let bareFirst = trial % 2 == 1
            if options.measureOverhead && bareFirst { bareNanos = try bareTrial(workload, benchCase) }
            let report = InvariantReport()
            var (metrics, latency) = try measuredTrial(workload, benchCase, report)
            if let latency {
                if caseLatency == nil { caseLatency = latency } else { caseLatency!.add(latency) }
            }
            if options.measureOverhead && !bareFirst { bareNanos = try bareTrial(workload, benchCase) }
            // Violations seen during warmup count against the first timed trial.
            metrics[.invariantViolations] = Double(report.count + warmupViolations)
            warmupViolations = 0
            if let off = bareNanos, let on = metrics[.nsPerEvent] { overheadPairs.append((on, off)) }
            samples += report.samples(.timed, trial: trial)
            records.append(TrialRecord(benchCase: benchCase, trial: trial, metrics: metrics))
        }
        var result = CaseResult(benchCase: benchCase, trials: records)
        result.overhead = HarnessOverhead(pairs: overheadPairs)
        result.latency = caseLatency

        if options.countAllocations {
            try continueUnlessCancelled()
            observer.benchEvent(.trialStarted(benchCase, trial: TrialRecord.countingTrial, of: options.trials))
            if AllocationCounter.isExact {
                let (record, descriptions) = try allocationTrial(workload, benchCase)
                if let record { result.addCounting(record) }
                samples += descriptions
            } else if let counting {
                let counted = try counting.countAllocations(benchCase, options: options)
                counted.trials.forEach { result.addCounting($0) }
                samples += counted.violationSamples
            }
        }
        if options.countInstructions, let counting {
            try continueUnlessCancelled()
            observer.benchEvent(.trialStarted(benchCase, trial: TrialRecord.countingTrial, of: options.trials))
            let counted = try instructionCounts[benchCase]?.get() ?? counting.countInstructions(benchCase, options: options)
            counted.trials.forEach { result.addCounting($0) }
            samples += counted.violationSamples
            if options.measureOverhead {
                var unchecked = options
                unchecked.checking = false
                let bare = try counting.countInstructions(benchCase, options: unchecked)
                if let on = counted.values(.instructionsPerEvent).first, let off = bare.values(.instructionsPerEvent).first, off > 0 {
                    result.instructionOverhead = on / off - 1
                }
            }
        }
        result.violationSamples = samples
        return result
    }

    /// The counting child's work: the warmup, then only the `counting` trial, in this
    /// process (which must count exactly, or run under callgrind; its dump is labelled
    /// `InstructionCounter.label(trial: index)`). Returns trial 0 (no record when
    /// allocations cannot be counted exactly here — left out rather than guessed, as under
    /// ThreadSanitizer) and, for instructions, the instrumented trial's operations.
    ///
    /// `warm`: a trial of the same case ran just before, and serves as the warmup. An
    /// instruction count's first trial gets at least one warmup whatever the options say,
    /// so that both of its trials find the case's one-time costs paid (the first
    /// instantiation of its generic types, its allocator classes): the count is then the
    /// same whichever cases ran before it in the process.
    func runCountingOnly(_ counting: CountingTrial, _ benchCase: BenchCase, index: Int = 0, warm: Bool = false) throws -> (CaseResult, operations: Int?) {
        let workload = Workloads.named(benchCase.workload)
        try prepareValidationSlowdown(workload, benchCase)
        var (warmupViolations, samples) =
            warm ? (0, [ViolationSample]()) : try warmup(workload, benchCase, atLeast: counting == .instructions ? 1 : 0)
        let record: TrialRecord?
        var operations: Int?
        switch counting {
        case .allocations:
            guard AllocationCounter.isExact else { return (CaseResult(benchCase: benchCase, trials: []), nil) }
            let (counted, descriptions) = try allocationTrial(workload, benchCase)
            record = counted
            samples += descriptions
        case .instructions:
            // The counted work's first call binds its symbols (about 1,300 instructions in
            // a debug build): paid here, it stays out of the first trial's count.
            if !warm { ValidationSlowdown.countedWork?(TrialOutcome(elapsedNanos: 0, operations: 1)) }
            let report = InvariantReport()
            let outcome = try InstructionCounter.instrument(
                label: InstructionCounter.label(trial: index), settle: { _ = waitForResources(atMost: Resources.total) },
                afterSettling: ValidationSlowdown.countedWork
            ) {
                try workload.runTrial(benchCase, invariants: report, checking: options.checking)
            }
            record = TrialRecord(benchCase: benchCase, trial: TrialRecord.countingTrial, metrics: [.invariantViolations: Double(report.count)])
            operations = outcome.operations
            samples += report.samples(.counting, trial: TrialRecord.countingTrial)
        }
        var result = CaseResult(benchCase: benchCase, trials: [], violationSamples: samples)
        if var record {
            record.metrics[.invariantViolations, default: 0] += Double(warmupViolations)
            warmupViolations = 0
            result.addCounting(record)
        }
        return (result, operations)
    }

    /// In a build with the `ValidationSlowdown` trait, sizes the case's slowdown with
    /// untimed trials of the case, with and without it (see `ValidationSlowdown.prepare`);
    /// nothing otherwise.
    private func prepareValidationSlowdown(_ workload: any Workload, _ benchCase: BenchCase) throws {
        #if ValidationSlowdown
        try ValidationSlowdown.prepare(for: benchCase) {
            try continueUnlessCancelled()
            let outcome = try workload.runTrial(benchCase, invariants: InvariantReport(), checking: options.checking)
            _ = waitForResources(atMost: Resources.total)
            return Self.throughput(outcome)[.nsPerEvent]
        }
        #endif
    }

    /// The untimed warmup trials: their violations and violation descriptions.
    private func warmup(_ workload: any Workload, _ benchCase: BenchCase, atLeast least: Int = 0) throws -> (violations: Int, samples: [ViolationSample]) {
        var violations = 0
        var samples: [ViolationSample] = []
        for index in 0..<max(options.warmup, least) {
            try continueUnlessCancelled()
            let report = InvariantReport()
            _ = try workload.runTrial(benchCase, invariants: report, checking: options.checking)
            violations += report.count
            samples += report.samples(.warmup, trial: index + 1)
            _ = waitForResources(atMost: Resources.total)
        }
        return (violations, samples)
    }

    /// A trial with checkers and collectors off (for `measureOverhead`), settled like a
    /// measured one so the next trial does not compete with its teardown; its ns/event.
    private func bareTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> Double? {
        let resourcesBefore = Resources.total
        let bare = try workload.runTrial(benchCase, invariants: InvariantReport(), checking: false)
        _ = waitForResources(atMost: resourcesBefore)
        return Self.throughput(bare)[.nsPerEvent]
    }

    /// One untimed trial between two allocation snapshots (this process must count exactly).
    private func allocationTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> (TrialRecord?, [ViolationSample]) {
        let report = InvariantReport()
        let before = AllocationCounter.snapshot()
        let outcome = try workload.runTrial(benchCase, invariants: report, checking: options.checking)
        let after = AllocationCounter.snapshot()
        _ = waitForResources(atMost: Resources.total)
        let samples = report.samples(.counting, trial: TrialRecord.countingTrial)
        guard let before, let after, outcome.operations > 0 else { return (nil, samples) }
        let counted = after - before
        let record = TrialRecord(
            benchCase: benchCase, trial: TrialRecord.countingTrial,
            metrics: [
                .allocsPerEvent: Double(counted.requests) / Double(outcome.operations),
                .bytesPerEvent: Double(counted.bytes) / Double(outcome.operations),
                .invariantViolations: Double(report.count),
            ])
        return (record, samples)
    }

    /// A timed trial with the collectors around it: its metrics, and its latencies for
    /// workloads that stamp events.
    private func measuredTrial(_ workload: any Workload, _ benchCase: BenchCase, _ report: InvariantReport) throws -> (
        [Metric: Double], LatencyRecorder?
    ) {
        let resourcesBefore = Resources.total
        ProcessStatus.resetPeakResidentSize()
        let sampler = ThreadSampler()
        sampler.start()
        // The harness's own CPU time (the sampler's and the paced threads' waiting) is read
        // inside the span the process's is read over, so what is left out of the trial is
        // always part of it.
        let usageBefore = ResourceUsage.current()
        let samplerBefore = sampler.cpuNanos
        let waitedBefore = PacedWait.cpuNanos
        if FaultInjection.current == .hangTrial {
            while true { sleep(3600) }
        }
        let outcome = try workload.runTrial(benchCase, invariants: report, checking: true)
        let harnessNanos = (sampler.cpuNanos &- samplerBefore) &+ (PacedWait.cpuNanos &- waitedBefore)
        let usage = ResourceUsage.current() - usageBefore
        let threadsPeak = sampler.stop()
        let leaked = waitForResources(atMost: resourcesBefore)
        let status = ProcessStatus.current()

        var metrics = Self.throughput(outcome)
        metrics.merge(outcome.latency?.metrics ?? [:]) { $1 }
        metrics.merge(outcome.metrics) { $1 }
        metrics[.cpuUser] = usage.userSeconds
        metrics[.cpuSys] = usage.systemSeconds
        if outcome.operations > 0, usage.cpuNanos > harnessNanos {
            metrics[.cpuNsPerEvent] = Double(usage.cpuNanos - harnessNanos) / Double(outcome.operations)
        }
        metrics[.ctxVoluntary] = Double(usage.voluntarySwitches)
        metrics[.ctxInvoluntary] = Double(usage.involuntarySwitches)
        metrics[.threadsPeak] = Double(threadsPeak)
        if let status {
            metrics[.threadsEnd] = Double(status.threads)
            metrics[.rssPeak] = Double(status.peakResidentBytes)
        }
        metrics[.resourcesLeaked] = Double(leaked)
        return (metrics, outcome.latency.flatMap { $0.count > 0 ? $0 : nil })
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
