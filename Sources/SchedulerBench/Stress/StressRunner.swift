import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// Runs one stress scenario in this process: iterations until the budget or the iteration
/// count is reached, the first violation is seen (it stops there, so the replay command
/// points at it), or `cancellation` asks.
///
/// The iterations run on a thread of their own while this one watches: when the scenario
/// shows no progress for `hangTimeout` seconds, the result records a `hang` with each
/// thread's last stress point, and `run` returns without the stuck threads. A process that
/// saw a hang cannot get them back; `schedbench stress` runs each scenario in a child
/// process, which exits after answering.
package enum StressRunner {
    package static func run(
        _ scenario: StressScenarioName, options: StressOptions, observer: any BenchObserver = SilentObserver(),
        cancellation: CancellationToken = CancellationToken()
    ) -> StressResult {
        run(scenario, instance: scenario.make(), options: options, observer: observer, cancellation: cancellation)
    }

    /// Runs `instance` under `scenario`'s name (tests run scenarios of their own).
    static func run(
        _ scenario: StressScenarioName, instance: any StressScenario, options: StressOptions, observer: any BenchObserver = SilentObserver(),
        cancellation: CancellationToken = CancellationToken()
    ) -> StressResult {
        // Runs its iterations on the iteration thread while this one watches it; nothing else touches it.
        nonisolated(unsafe) let instance = instance
        Perturbation.install()
        defer { Perturbation.uninstall() }
        Perturbation.resetRegistry()
        let spinners = Spinners(count: options.spinners)
        defer { spinners.stop() }
        // Locked boxes rather than `Mutex`: ThreadSanitizer sees pthread locks, not Mutex's futex.
        var initial = StressResult(
            scenario: scenario, seed: options.seed, hooksCompiled: StressHooks.isCompiled, spinners: options.spinners,
            seededBug: SeededBugRequest.requested)
        initial.scheduler = options.scheduler
        initial.points = options.points
        let state = Locked(initial)
        let hotMask = Perturbation.mask(options.points)
        let outcomeTable = Locked([String: StressOutcome]())
        let heartbeat = Heartbeat()
        let finished = DispatchSemaphore(value: 0)
        let abandoned = Atomic<Bool>(false)
        let started = MonotonicClock.now()
        @Sendable func elapsed() -> Double { Double(MonotonicClock.now() - started) / 1e9 }
        let currentIteration = Atomic<Int>(0)

        let worker = Thread {
            var index = 0
            while !cancellation.isCancelled {
                if let limit = options.iterations, index >= limit { break }
                if let seconds = options.seconds, elapsed() >= seconds { break }
                currentIteration.store(index, ordering: .relaxed)
                observer.benchEvent(.stressIteration(scenario, iteration: index))
                let iteration = StressIteration(
                    scenario: scenario, index: index, seed: options.seed, heartbeat: heartbeat, targetScheduler: options.scheduler)
                var planRandom = iteration.stream(Int.max)
                Perturbation.begin(.random(&planRandom, limitedTo: hotMask), seed: planRandom.next())
                heartbeat.beat()
                if FaultInjection.current == .crash && index == FaultInjection.crashIteration {
                    fatalError("\(FaultInjection.environmentKey)=crash: the stress child dies in iteration \(index)")
                }
                instance.run(iteration)
                Perturbation.end()
                if abandoned.load(ordering: .acquiring) { return }
                let (violations, outcomes) = iteration.collected()
                let now = elapsed()
                state.withLock { result in
                    result.iterations = index + 1
                    result.operations += iteration.operations.load(ordering: .relaxed)
                    for violation in violations { result.record(violation, atSecond: now) }
                }
                outcomeTable.withLock { table in
                    for (name, (outcomeClass, count)) in outcomes {
                        table[name, default: StressOutcome(name: name, outcomeClass: outcomeClass, count: 0)].count += count
                    }
                }
                if !violations.isEmpty { break }
                index += 1
            }
            finished.signal()
        }
        worker.name = "stress.driver"
        worker.stackSize = 8 << 20
        worker.start()

        // A hang is `hangTimeout` without a beat in time the process could use: when the
        // watchdog itself wakes late, or the scenario's threads wait in a run queue behind
        // other processes, that time is not the scenario's (StallCompensatedDeadline; the
        // watchdog samples `Starvation` for every deadline of the run).
        var meter = StarvationMeter(now: MonotonicClock.now())
        var ticks = 0
        var seenBeat = heartbeat.lastBeat
        var deadline = StallCompensatedDeadline(seconds: options.hangTimeout, now: seenBeat, starved: Starvation.lost)
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            ticks += 1
            if ticks % 2 == 0 { meter.sample(now: MonotonicClock.now()) }
            if heartbeat.lastBeat != seenBeat {
                seenBeat = heartbeat.lastBeat
                deadline = StallCompensatedDeadline(seconds: options.hangTimeout, now: seenBeat, starved: Starvation.lost)
            }
            guard deadline.hasPassed(now: MonotonicClock.now(), afterPause: 50_000_000, starved: Starvation.lost) else { continue }
            abandoned.store(true, ordering: .releasing)
            Perturbation.end()
            let iteration = currentIteration.load(ordering: .relaxed)
            let threads = Perturbation.threadReport()
            let stalledTail = StalledChunkWait.tailWord.load(ordering: .relaxed)
            let extended = Double(deadline.extended) / 1e9
            let detail =
                "no progress for \(options.hangTimeout) s in iteration \(iteration)"
                + (extended < 0.05 ? "" : String(format: " (and %.1f s more while the process was kept from running)", extended))
                + (threads.isEmpty ? "" : "; threads: " + threads.joined(separator: "; "))
                + (stalledTail == 0 ? "" : "; a queue producer waited over 5 s for the next chunk (tail word 0x\(String(stalledTail, radix: 16)))")
            let now = elapsed()
            state.withLock { result in
                result.iterations = iteration + 1
                result.record(StressViolation(kind: .hang, iteration: iteration, detail: detail), atSecond: now)
            }
            break
        }
        var result = state.withLock { $0 }
        result.durationSeconds = elapsed()
        result.outcomes = outcomeTable.withLock { $0.values.sorted { ($0.outcomeClass.rawValue, $0.name) < ($1.outcomeClass.rawValue, $1.name) } }
        return result
    }
}
