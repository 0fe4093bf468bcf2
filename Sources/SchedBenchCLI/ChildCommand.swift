import ArgumentParser
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows
import Foundation

/// `schedbench _child`: the child protocol's service, which the tool itself does not offer
/// (it measures nothing): it hands the request, unread, to the measuring executable it
/// drives (`schedbench-builtins` beside it, or the one `SCHEDBENCH_TARGET` names), so a
/// gate given two `schedbench` tools measures with their built-ins. Hidden from help.
struct ChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ChildRequest.childCommand,
        abstract: "Hand a child-protocol request to the measuring executable (gate rounds given a schedbench tool).",
        shouldDisplay: false
    )

    func validate() throws {
        guard fcntl(ChildChannel.replyDescriptor, F_GETFD) != -1 else {
            throw ValidationError("_child is started by schedbench itself and answers on file descriptor 3, which is not open here")
        }
    }

    func run() throws {
        let target = try MeasuringExecutable.resolve()
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(target.path), strdup(ChildRequest.childCommand), nil]
        execv(target.path, &argv)
        throw BenchError.childFailed(executable: target.path, problem: "cannot start: \(String(cString: strerror(errno)))")
    }
}
