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
package struct ChildRequest: Codable, Sendable, Equatable {
    /// The protocol version this build speaks.
    package static let currentVersion = 3

    /// What the child is to do.
    package enum Job: Codable, Sendable, Equatable {
        /// Every case in full: warmup, timed trials, and the counting trials `options` asks for.
        case cases
        /// Only this counting trial of each case, in the child itself, after the warmup.
        case counting(CountingTrial)
        /// One stress scenario (`StressRunner`); the reply's `stress` holds its result. The
        /// child exits after answering, so threads a hang left stuck go with it.
        case stress(StressScenarioName, StressOptions)
    }

    var version: Int
    var job: Job
    var cases: [BenchCase]
    var options: RunOptions

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
        var operations: Int?
    }

    var version: Int
    /// Where and how the child ran (its build, its commit).
    package var provenance: Provenance
    package var outcomes: [CaseOutcome]
    /// The request could not be served at all (unreadable, another version).
    package var failure: BenchError?
    /// A stress job's result.
    package var stress: StressResult?
}

/// One line of the child's answer stream.
package enum ChildMessage: Codable, Sendable {
    case event(BenchEvent)
    case reply(ChildReply)
}

extension ChildMessage {
    /// One message per line: JSON without newlines. Non-finite numbers (a metric that
    /// divided by zero) travel as strings.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
