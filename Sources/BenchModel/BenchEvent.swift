/// What the engine reports while it works. The engine never prints: a run, a child and a
/// gate send these to one `BenchObserver`, and the CLI decides what a person sees
/// (progress line, messages) — or a program embedding the engine does something else.
/// Codable: a child process sends its events to the parent over the child protocol.
package enum BenchEvent: Codable, Sendable {
    /// A case begins: `index` counts from 1 up to `count`.
    case caseStarted(BenchCase, index: Int, count: Int)
    /// A trial of the running case begins (`TrialRecord.countingTrial` for the counting trials).
    case trialStarted(BenchCase, trial: Int, of: Int)
    /// A case finished and its results are written (it may still hold correctness failures).
    case caseFinished(CaseResult)
    /// A case could not run; the run goes on with the next.
    case caseFailed(BenchCase, BenchError)
    /// A gate round begins for one side.
    case roundStarted(round: Int, of: Int, side: GateSide)
    /// A gate that counts instructions counts `cases` again, in `rounds` more rounds: their
    /// rows would be called changed (`GateWorkflow.confirmationRounds`).
    case recountStarted(cases: [BenchCase], rounds: Int)
    /// A stress scenario begins: `index` counts from 1 up to `count`.
    case scenarioStarted(StressScenarioName, index: Int, count: Int, seed: UInt64)
    /// A stress scenario begins an iteration (counting from 0).
    case stressIteration(StressScenarioName, iteration: Int)
    /// A stress scenario finished (passed or not).
    case scenarioFinished(StressResult)
}

/// The two builds a gate compares, round by round.
package enum GateSide: String, CaseIterable, Codable, Sendable {
    case baseline, candidate
}

/// Receives the engine's events, on the thread that does the work (calls do not overlap
/// for one run). Implementations must be quick: the caller waits.
package protocol BenchObserver: Sendable {
    func benchEvent(_ event: BenchEvent)
}

/// An observer that ignores everything.
package struct SilentObserver: BenchObserver {
    package init() {}
    package func benchEvent(_ event: BenchEvent) {}
}

/// Passes on the events `passes` accepts: how a parent forwards the part of a child's
/// progress it does not report itself.
package struct FilteringObserver: BenchObserver {
    let observer: any BenchObserver
    let passes: @Sendable (BenchEvent) -> Bool

    package init(_ observer: any BenchObserver, passes: @escaping @Sendable (BenchEvent) -> Bool) {
        self.observer = observer
        self.passes = passes
    }

    package func benchEvent(_ event: BenchEvent) {
        if passes(event) { observer.benchEvent(event) }
    }
}
