
/// What one scenario's stress run found. Codable: a scenario runs in a child process and
/// its result travels back over the child protocol.
package struct StressResult: Codable, Sendable {
    package var scenario: StressScenarioName
    package var seed: UInt64
    /// Iterations completed (the failing one included).
    package var iterations: Int
    /// Operations performed (enqueues, events, schedules, subscriptions: the scenario's unit).
    package var operations: Int
    package var durationSeconds: Double
    /// How often each checked kind was seen (every kind the scenario checks, zeros included).
    package var violations: [ViolationKind: Int]
    /// The first violations, with details (at most `StressResult.sampleLimit`).
    package var samples: [StressViolation]
    /// Outcomes of the races the scenario counts, acceptable and forbidden.
    package var outcomes: [StressOutcome]
    /// The first iteration with a violation, if any: a replay runs iterations up to it.
    package var failingIteration: Int?
    /// Seconds from the scenario's start to its first violation.
    package var secondsToFirstViolation: Double?
    /// Stress points were active (a build with the `StressHooks` trait).
    package var hooksCompiled: Bool
    /// The spinning threads that competed for the cores (`--threads`).
    package var spinners: Int
    /// The seeded bug the core ran with (`RXSCHEDULERS_SEEDED_BUG`, in a build made by
    /// scripts/seeded-bugs.py), if any.
    package var seededBug: String?
    /// The registered scheduler the scenario stressed (`--scheduler`), if one was named.
    package var scheduler: SchedulerName?
    /// The stress points perturbation was limited to (`--points`), if it was.
    package var points: [String]?
    /// When the scenario's child crashed: the end of what it wrote to standard error, the
    /// Swift runtime's backtrace of every thread (at most `StressRun.keptCrashOutput` bytes).
    package var crashLog: String?
    /// Set by the tool when an interrupt (Ctrl-C) stopped the scenario before its budget
    /// ran out: the iterations it had finished. Such a scenario found nothing in fewer
    /// iterations than asked, which is not a pass.
    package var interruptedAfter: Int?

    package static let sampleLimit = 10

    /// The environment variable that switches a seeded bug on, in a build of the seeded-bug
    /// catalogue (scripts/seeded-bugs.py).
    package static let seededBugVariable = "RXSCHEDULERS_SEEDED_BUG"

    /// The command a replay starts with: `schedbench`, the name of the user's
    /// SchedulerBench executable that ran the scenario, or the plugin's command; preceded
    /// by the `SCHEDBENCH_TARGET` assignment when one named the measuring executable by
    /// hand. The tool's entry point sets it.
    nonisolated(unsafe) package static var commandName = "schedbench"

    /// An empty result, with a zero for every kind in `checks`.
    package init(scenario: StressScenarioName, checks: [ViolationKind], seed: UInt64, hooksCompiled: Bool, spinners: Int, seededBug: String?) {
        self.scenario = scenario
        self.seed = seed
        iterations = 0
        operations = 0
        durationSeconds = 0
        violations = Dictionary(uniqueKeysWithValues: checks.map { ($0, 0) })
        samples = []
        outcomes = []
        self.hooksCompiled = hooksCompiled
        self.spinners = spinners
        self.seededBug = seededBug
    }

    package var violationCount: Int { violations.values.reduce(0, +) }

    package var passed: Bool { violationCount == 0 }

    /// `passed`, `failed`, or `interrupted` (no violation, but stopped before its budget ran out).
    package var status: String { !passed ? "failed" : interruptedAfter != nil ? "interrupted" : "passed" }

    /// The iterations a replay must run to reach the failing one.
    package var replayIterations: Int? { failingIteration.map { $0 + 1 } }

    /// The command that replays the failure: the same scenario, seed, iterations and
    /// spinning threads, under the same seeded bug. Pasted into a shell it runs as is.
    package var replayCommand: String? {
        replayIterations.map { iterations in
            let bug = seededBug.map { "\(Self.seededBugVariable)=\($0) " } ?? ""
            let target = scheduler.map { " --scheduler \($0.rawValue)" } ?? ""
            let limited = points.map { " --points \($0.isEmpty ? "none" : $0.joined(separator: ","))" } ?? ""
            return
                "\(bug)\(Self.commandName) stress --scenario \(scenario.rawValue)\(target) --seed \(seed) --iterations \(iterations) --threads \(spinners)\(limited)"
        }
    }

    /// Records a violation seen at `iteration` after `seconds`.
    package mutating func record(_ violation: StressViolation, atSecond seconds: Double) {
        violations[violation.kind, default: 0] += 1
        if samples.count < Self.sampleLimit { samples.append(violation) }
        if failingIteration == nil {
            failingIteration = violation.iteration
            secondsToFirstViolation = seconds
        }
    }
}
