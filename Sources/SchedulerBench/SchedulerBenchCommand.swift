import BenchMeasure
import BenchModel
import BenchWorkflows
import Foundation
import CJemalloc
import SchedBenchCLI

/// A SchedulerBench executable: the whole command line (`run`, `list`, `compare`, `gate`,
/// `stress`, `report`, `export`, `history`) over the built-ins and the entries a package
/// registers in `register(in:)`.
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
/// The executable is also its own child process: isolated cases, allocation and
/// instruction trials, stress scenarios and gate rounds run it again (`_child`), and
/// `register(in:)` runs there too, so a child knows the same entries. Keep `register(in:)`
/// cheap and free of side effects: it runs once per process, before the command line is
/// parsed.
///
/// Linking this module links jemalloc (`libjemalloc-dev`), which then serves the
/// executable's allocations, so that `allocs_per_event` and `bytes_per_event` can be counted.
public protocol SchedulerBenchCommand {
    /// Adds the package's schedulers, hand-offs and workloads to `registry`, which holds
    /// the built-ins already. A name registered twice traps at startup, naming it.
    static func register(in registry: inout Registry)
}

extension SchedulerBenchCommand {
    /// Registers the built-ins and the package's entries, then parses the command line and
    /// runs it; exits with the documented status (`schedbench --help`).
    public static func main() {
        var registry = Registry.builtIns
        register(in: &registry)
        Registry.install(registry)
        StressResult.commandName = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        // This process allocates through jemalloc (linked with this module); the engine
        // reads its statistics through mallctl.
        AllocationCounter.mallctl = { name, old, oldSize, new, newSize in mallctl(name, old, oldSize, new, newSize) }
        SchedBench.main()
    }
}
