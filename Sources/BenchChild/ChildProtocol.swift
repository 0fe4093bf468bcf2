import BenchModel
import Foundation

/// The child protocol: how the engine runs work in another process — a case in isolation
/// (`RunOptions.isolate`), a counting trial (allocations without thread caches,
/// instructions under callgrind), a gate round on another build.
///
/// The parent starts `schedbench _child` (`ChildProcess`), writes one `ChildRequest` as
/// JSON to the child's standard input and closes it. The child answers on file descriptor 3
/// with JSON lines, each one `ChildMessage`: any number of `.event`s (progress, forwarded to
/// the parent's observer) and then exactly one `.reply`. Its standard output is
/// `/dev/null`, so nothing a workload prints can corrupt the stream; its standard error
/// is kept, bounded, to explain a failure. Everything a case produced travels back:
/// trials, violation samples, overhead figures, errors — nothing goes through files.
///
/// The version is checked on both sides; a build that speaks another version is refused
/// with a message naming both.
///
/// The jobs: `describe` (what the executable can measure: the tool's `list` and its
/// checks of names), `plan` (a run's cases from a suite and filters), `cases` (measure),
/// `counting` (one counting trial, the runtime's own child), `stress` (one scenario).
package struct ChildRequest: Codable, Sendable, Equatable {
    /// The protocol version this build speaks. 4 added `RunOptions.countingProcessors`: a
    /// build speaking 3 would ignore it, and its children would count on any processor. 5
    /// added `RunOptions.countUnderRealTime`: a build speaking 4 counts under the normal
    /// scheduler, where a hand-off counts another number (1.6% fewer instructions an event
    /// for `subscribeOn.cycle` on `mainAsync`), so a gate between the two would see a change
    /// neither build made.
    package static let currentVersion = 5

    /// The command-line argument that makes an executable a child (`schedbench-builtins
    /// _child`, a user's SchedulerBench executable `_child`).
    package static let childCommand = "_child"

    /// What the child is to do.
    package enum Job: Codable, Sendable, Equatable {
        /// Describe what the executable can measure (`ChildReply.description`).
        case describe
        /// Plan a run over its registry (`ChildReply.plan`); a request naming what it does
        /// not have is a `BenchError.usage` failure.
        case plan(PlanRequest)
        /// Every case in full: warmup, timed trials, and the counting trials `options` asks
        /// for. Each case's result also goes out as it finishes (`BenchEvent.caseFinished`).
        case cases
        /// Only this counting trial of each case, in the child itself, after the warmup.
        case counting(CountingTrial)
        /// One stress scenario (`StressRunner`); the reply's `stress` holds its result. The
        /// child exits after answering, so threads a hang left stuck go with it.
        case stress(StressScenarioName, StressOptions)
    }

    package var version: Int
    package var job: Job
    package var cases: [BenchCase]
    package var options: RunOptions

    package init(job: Job, cases: [BenchCase], options: RunOptions) {
        version = Self.currentVersion
        self.job = job
        self.cases = cases
        self.options = options
    }
}

/// The child's answer: what happened to each case of the request, in order.
package struct ChildReply: Codable, Sendable {
    /// One case's outcome: its result, or why it could not run.
    package struct CaseOutcome: Codable, Sendable {
        package var benchCase: BenchCase
        package var result: CaseResult?
        package var error: BenchError?
        /// For an instruction-counting trial: the operations the instrumented trial
        /// completed (the parent divides the counted instructions by them).
        package var operations: Int?

        package init(benchCase: BenchCase, result: CaseResult? = nil, error: BenchError? = nil, operations: Int? = nil) {
            self.benchCase = benchCase
            self.result = result
            self.error = error
            self.operations = operations
        }
    }

    package var version: Int
    /// Where and how the child ran (its build, its commit).
    package var provenance: Provenance
    package var outcomes: [CaseOutcome]
    /// The request could not be served at all (unreadable, another version).
    package var failure: BenchError?
    /// A stress job's result.
    package var stress: StressResult?
    /// A `describe` job's answer.
    package var description: RegistryDescription?
    /// A `plan` job's answer.
    package var plan: PlanReply?

    package init(
        version: Int = ChildRequest.currentVersion, provenance: Provenance, outcomes: [CaseOutcome] = [], failure: BenchError? = nil,
        stress: StressResult? = nil, description: RegistryDescription? = nil, plan: PlanReply? = nil
    ) {
        self.version = version
        self.provenance = provenance
        self.outcomes = outcomes
        self.failure = failure
        self.stress = stress
        self.description = description
        self.plan = plan
    }
}

/// One line of the child's answer stream.
package enum ChildMessage: Codable, Sendable {
    case event(BenchEvent)
    case reply(ChildReply)
}

extension ChildMessage {
    /// One message per line: JSON without newlines. Non-finite numbers (a metric that
    /// divided by zero) travel as strings.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// The channel's fixed parts, which both sides must agree on.
package enum ChildChannel {
    /// The descriptor the child answers on (`ChildProcess` sets it up, the child service writes it).
    package static let replyDescriptor: Int32 = 3
    /// The signal with which a parent asks a stress child to stop after its current
    /// iteration (`ChildProcess.run(…, stopping:)`).
    package static let stopSignal = SIGUSR1
}

/// Where the tool and a measuring executable find each other.
package enum ToolLocation {
    /// The tool's executable name.
    package static let toolName = "schedbench"
    /// The built-ins' measuring executable, which the tool drives by default.
    package static let builtInsName = "schedbench-builtins"
    /// The tool a measuring executable hands its command line to, when set.
    package static let toolVariable = "SCHEDBENCH_TOOL"
    /// The measuring executable the tool drives, when set (a user's executable sets it
    /// before handing over; the plugin sets it).
    package static let targetVariable = "SCHEDBENCH_TARGET"
    /// The name the tool goes by in its messages, when set (the user's executable's).
    package static let commandVariable = "SCHEDBENCH_COMMAND"
}

/// Programs found the way a shell finds them.
package enum ExecutableSearch {
    /// The first executable file `name` in `PATH`'s directories, or nil.
    package static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
