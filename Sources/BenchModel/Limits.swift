/// The largest values a plan and its options may take: beyond them a run would exhaust the
/// machine (threads, memory) or run for hours without a way to stop mid-case, so the CLI
/// refuses them with a usage error naming the limit. Documented in "Results format".
package enum Limits {
    /// Producer threads per case: each is a thread of its own.
    package static let producers = 1...256
    /// Events (operations, ticks) per trial.
    package static let events = 1...10_000_000
    /// Bytes of payload per event.
    package static let payloadBytes = 0...65_536
    /// Payload bytes per trial (payload × events): what a backlog could have to hold.
    package static let payloadBytesPerTrial = 4 << 30
    /// Pacing rate, events per second.
    package static let rateHz = 1...10_000_000
    /// Seconds a paced trial may last (events ÷ rate): a slow rate must not turn a trial
    /// into hours that only a second Ctrl-C can end.
    package static let pacedSecondsPerTrial = 3_600
    /// Timed trials per case (and gate rounds).
    package static let trials = 1...1_000
    /// Warmup trials per case.
    package static let warmup = 0...100
    /// Processes a run measures every case in (`run --processes`).
    package static let processes = 1...100
    /// Seconds a child process may run without replying before it is killed.
    package static let childTimeoutSeconds = 1...86_400
    /// `stress --duration`: a day at most.
    package static let stressSeconds = 1...86_400
    /// `stress --iterations`, per scenario.
    package static let stressIterations = 1...100_000_000
    /// `stress --threads`: extra spinning threads.
    package static let stressThreads = 0...64
}
