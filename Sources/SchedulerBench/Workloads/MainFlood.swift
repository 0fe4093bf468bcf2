import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `main.flood`: a background thread floods a main-queue scheduler with N actions while a
/// probe thread puts one plain `DispatchQueue.main.async` block on the main queue every
/// millisecond. Records the probes' latency from their intended time: how long other main
/// work (UI, timers) waits behind the flood. The batched MainScheduler lets a probe in
/// after one batch; per-action dispatch (and `mainAsync`) makes it wait behind everything
/// enqueued before it. Checks the flood's order and exactly-once.
struct MainFlood: Workload {
    let name = WorkloadName.mainFlood
    let summary = "N actions flood the main queue from a background thread; latency of a 1 kHz probe of other main work"
    let unsupportedReason = "only main-queue schedulers share the main queue with other work"
    let axes: Set<Axis> = []
    let defaultEvents = 200_000
    static let probeInterval: UInt64 = 1_000_000

    init() {}

    /// The schedulers made for it (MainScheduler's instances), with their dispatch strategies.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] { scheduler.offers[name] ?? [] }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        // Made to be called from any thread (Workload: the core's schedulers and Sendable).
        nonisolated(unsafe) let scheduler = try Registry.current.requireScheduler(benchCase.scheduler).instance(strategy: benchCase.strategy)
        let events = benchCase.events
        let checker = checking ? SequenceChecker(expectedCounts: [events], report: invariants) : nil
        let remaining = Atomic<Int>(events)
        let floodDone = Atomic<Bool>(false)
        let finishedAt = Atomic<UInt64>(0)
        let done = DispatchSemaphore(value: 0)
        let probes = ProbeLatencies()

        let flood = try ProducerThreads(count: 1, name: "schedbench.flood") { _ in
            for sequence in 0..<events {
                _ = scheduler.schedule(sequence) { sequence in
                    checker?.observe(producer: 0, sequence: sequence)
                    if remaining.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
                        finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                        floodDone.store(true, ordering: .releasing)
                        done.signal()
                    }
                    return Disposables.create()
                }
            }
        }
        let prober = try ProducerThreads(count: 1, name: "schedbench.probe") { _ in
            let start = MonotonicClock.now()
            var index: UInt64 = 0
            while !floodDone.load(ordering: .acquiring) {
                let due = start + index * Self.probeInterval
                PacedWait.wait(until: due)
                DispatchQueue.main.async { probes.record(intended: due) }
                index += 1
            }
        }
        _ = prober.start()
        let start = flood.start()
        let timeout = trialTimeout(events: events)
        let completed = done.wait(
            seconds: timeout, orReport: invariants,
            "\(remaining.load(ordering: .relaxed)) of \(events) flood actions never ran")
        floodDone.store(true, ordering: .releasing)
        _ = flood.join(timeout: timeout)
        _ = prober.join(timeout: timeout)
        // Let the last probes run before reading the histogram on this thread.
        DispatchQueue.main.sync {}
        checker?.finish()
        let end = completed ? finishedAt.load(ordering: .relaxed) : MonotonicClock.now()
        return TrialOutcome(elapsedNanos: end - start, operations: events, latency: probes.recorder)
    }
}

/// Probe latencies, recorded on the main queue and read after it has drained.
final class ProbeLatencies: @unchecked Sendable {
    private(set) var recorder = LatencyRecorder()
    func record(intended: UInt64) { recorder.record(intended: intended, completed: MonotonicClock.now()) }
}
