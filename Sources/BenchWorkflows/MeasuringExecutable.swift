import BenchChild
import BenchModel
import Foundation

/// The executable that measures for the tool: `schedbench-builtins` (the built-ins and the
/// peers) or a user's SchedulerBench executable. The tool asks it, through the child
/// protocol, what it can measure (`describe`), which cases a run holds (`plan`), and to
/// measure them (`RunWorkflow`), to stress (`StressRun`), and to run gate rounds.
package struct MeasuringExecutable: Sendable, Equatable {
    /// What starts it (a launcher script in a portable bundle, the binary otherwise).
    package var path: String

    package init(path: String) { self.path = path }

    /// The executable the tool drives unless told otherwise: the one `SCHEDBENCH_TARGET`
    /// names (a user's executable sets it before handing its command line over), else
    /// `schedbench-builtins` beside the tool. Throws when neither is there, saying how to
    /// build it.
    package static func resolve(tool: String = ChildProcess.currentExecutable) throws -> MeasuringExecutable {
        if let named = ProcessInfo.processInfo.environment[ToolLocation.targetVariable], !named.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw BenchError.toolMissing("\(ToolLocation.targetVariable)='\(named)' is not an executable file")
            }
            return MeasuringExecutable(path: named)
        }
        let sibling = URL(fileURLWithPath: tool).deletingLastPathComponent().appendingPathComponent(ToolLocation.builtInsName).path
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw BenchError.toolMissing(
                "no measuring executable: \(ToolLocation.builtInsName) is not beside \(tool) (build it: swift build -c release --product \(ToolLocation.builtInsName)), "
                    + "and \(ToolLocation.targetVariable) names none")
        }
        return MeasuringExecutable(path: sibling)
    }

    /// The provenance of a run that starts now with this executable: its build's and
    /// machine's (from `describe()`), with a fresh run id, timestamp and load average.
    package func runProvenance() throws -> Provenance {
        try describe().provenance.restamped()
    }

    /// What it can measure, and where it runs (as it answered the first time: a cached
    /// answer's run id and timestamp are of that time, see `runProvenance()`); asked once
    /// per process and path.
    package func describe() throws -> (description: RegistryDescription, provenance: Provenance) {
        if let known = Self.described.withLock({ $0[path] }) { return known }
        let reply = try ChildProcess(binary: path).run(ChildRequest(job: .describe, cases: [], options: RunOptions()), timeout: 120)
        guard let description = reply.description else {
            throw BenchError.childFailed(executable: path, problem: "replied to describe without a description")
        }
        let answer = (description, reply.provenance)
        Self.described.withLock { $0[path] = answer }
        return answer
    }

    /// The cases of `request` over its registry (a name it lacks is `BenchError.usage`).
    package func plan(_ request: PlanRequest) throws -> PlanReply {
        let reply = try ChildProcess(binary: path).run(ChildRequest(job: .plan(request), cases: [], options: RunOptions()), timeout: 120)
        guard let plan = reply.plan else { throw BenchError.childFailed(executable: path, problem: "replied to plan without a plan") }
        return plan
    }

    private static let described = Locked<[String: (description: RegistryDescription, provenance: Provenance)]>([:])
}
