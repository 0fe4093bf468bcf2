import BenchChild
import BenchModel
import Foundation

/// A SchedulerBench executable: measures the built-ins and the entries a package registers
/// in `register(in:)`, for the `schedbench` tool, which gives it the whole command line
/// (`run`, `list`, `compare`, `gate`, `stress`, `report`, `export`, `history`).
///
/// ```swift
/// import RxSchedulers
/// import SchedulerBench
///
/// @main
/// struct MyBench: SchedulerBenchCommand {
///     static func register(in registry: inout Registry) {
///         registry.scheduler("myLoop", summary: "our event loop", contracts: [.serial]) { MyLoopScheduler() }
///     }
/// }
/// ```
///
/// `swift package schedbench run …` builds this executable and the tool and runs the tool
/// on it. Run directly, the executable hands its command line to the tool: the one
/// `SCHEDBENCH_TOOL` names, else `schedbench` beside it (`swift build -c release --product
/// schedbench` puts it there), else `schedbench` on `PATH`.
///
/// The tool drives the executable as a child process (`_child`): planning a run, measuring
/// cases, counting trials, stress scenarios and gate rounds all run it again, and
/// `register(in:)` runs in each of them, so every process knows the same entries. Keep it
/// cheap and free of side effects: it runs once per process, before anything else. A name
/// that cannot be registered (taken, reserved, or not a name) ends the process with exit
/// status 1 and a message naming it and the problem, in every build.
///
/// Linking the `SchedulerBench` product links jemalloc (`libjemalloc-dev`), which then
/// serves the executable's allocations, so that `allocs_per_event` and `bytes_per_event`
/// can be counted.
public protocol SchedulerBenchCommand {
    /// Adds the package's schedulers, hand-offs and workloads to `registry`, which holds
    /// the built-ins already.
    static func register(in registry: inout Registry)
}

extension SchedulerBenchCommand {
    /// Registers the built-ins and the package's entries, then serves the tool (`_child`)
    /// or hands the command line to it.
    public static func main() {
        var registry = Registry.builtIns
        register(in: &registry)
        if FaultInjection.current == .registerTwice { register(in: &registry) }
        Registry.install(registry)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ChildRequest.childCommand {
            ChildService.serve()
            exit(0)
        }
        ToolHandOff.run(arguments)
    }
}
