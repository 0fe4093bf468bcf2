import Foundation
import RxSchedulers

/// Runs one case: warmup, timed trials with the process collectors around each, then the
/// allocation-counting trial. Collectors read outside the timed region: getrusage and the
/// thread/RSS reads happen before and after the trial, the thread sampler wakes every 10 ms.
public struct CaseRunner {
    public var options: RunOptions
    /// Runs the allocation trial in a child process when this process cannot count exactly.
    public var allocationChild: IsolatedCaseRunner?
    /// Called before each trial: (trial, of) — trial 0 is the allocation trial.
    public var onTrial: (Int, Int) -> Void = { _, _ in }

    public init(options: RunOptions, allocationChild: IsolatedCaseRunner? = nil) {
        self.options = options
        self.allocationChild = allocationChild
    }

    public func run(_ benchCase: BenchCase) throws -> CaseResult {
        let workload = Workloads.named(benchCase.workload)
        var records: [TrialRecord] = []
        var samples: [String] = []
        var warmupViolations = 0

        for _ in 0..<options.warmup {
            let report = InvariantReport()
            _ = try workload.runTrial(benchCase, invariants: report, checking: true)
            warmupViolations += report.count
            samples += report.descriptions
            _ = waitForResources(atMost: Resources.total)
        }

        if options.allocationsOnly {
            // Without exact counts (jemalloc not serving malloc, as under ThreadSanitizer) the
            // allocation metrics are left out rather than guessed.
            guard AllocationCounter.isExact else { return CaseResult(benchCase: benchCase, trials: []) }
            let (record, descriptions) = try allocationTrial(workload, benchCase)
            records += record.map { [$0] } ?? []
            samples += descriptions
            return CaseResult(benchCase: benchCase, trials: records, violationSamples: Array(samples.prefix(InvariantReport.keptDescriptions)))
        }

        var bareNanos: [Double] = []
        for trial in 1...options.trials {
            onTrial(trial, options.trials)
            if options.measureOverhead {
                let bare = try workload.runTrial(benchCase, invariants: InvariantReport(), checking: false)
                if let nanos = Self.throughput(bare)[.nsPerEvent] { bareNanos.append(nanos) }
            }
            let report = InvariantReport()
            var metrics = try measuredTrial(workload, benchCase, report)
            // Violations seen during warmup count against the first timed trial.
            let violations = report.count + (trial == 1 ? warmupViolations : 0)
            metrics[.invariantViolations] = Double(violations)
            samples += report.descriptions
            records.append(TrialRecord(benchCase: benchCase, trial: trial, metrics: metrics))
        }

        var overhead: Double?
        if let bare = Statistics.median(bareNanos), let measured = Statistics.median(records.compactMap { $0.metrics[.nsPerEvent] }), bare > 0 {
            overhead = measured / bare - 1
        }

        if options.countAllocations {
            onTrial(TrialRecord.allocationTrial, options.trials)
            if AllocationCounter.isExact {
                let (record, descriptions) = try allocationTrial(workload, benchCase)
                records += record.map { [$0] } ?? []
                samples += descriptions
            } else if let allocationChild {
                let counted = try allocationChild.run(benchCase, options: options, allocationsOnly: true)
                records += counted.trials
                samples += counted.violationSamples
            }
        }
        var result = CaseResult(benchCase: benchCase, trials: records, violationSamples: Array(samples.prefix(InvariantReport.keptDescriptions)))
        result.overhead = overhead
        return result
    }

    /// One untimed trial between two allocation snapshots (this process must count exactly).
    private func allocationTrial(_ workload: any Workload, _ benchCase: BenchCase) throws -> (TrialRecord?, [String]) {
        let report = InvariantReport()
        let before = AllocationCounter.snapshot()
        let outcome = try workload.runTrial(benchCase, invariants: report, checking: true)
        let after = AllocationCounter.snapshot()
        _ = waitForResources(atMost: Resources.total)
        guard let before, let after, outcome.operations > 0 else { return (nil, report.descriptions) }
        let counted = after - before
        let record = TrialRecord(benchCase: benchCase, trial: TrialRecord.allocationTrial, metrics: [
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
