import ArgumentParser
import Foundation
import BenchWorkflows

/// `schedbench _child`: the child side of the engine's child protocol (`ChildRequest`).
/// Not for people: the engine starts it with a request on standard input and reads the
/// answer from file descriptor 3. Hidden from help; it takes no options.
struct ChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_child",
        abstract: "Serve one child-protocol request (used by run --isolate, counting trials and gate).",
        shouldDisplay: false
    )

    func validate() throws {
        guard fcntl(3, F_GETFD) != -1 else {
            throw ValidationError("_child is started by schedbench itself and answers on file descriptor 3, which is not open here")
        }
    }

    func run() throws {
        ChildEntryPoint.serve()
    }
}
