import ArgumentParser
import CJemalloc
import SchedulerBench

@main
struct SchedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedbench",
        abstract: "Measure and compare Rx schedulers and hand-off strategies.",
        discussion: """
            Runs workload matrices (scheduler × strategy × producers × payload × rate) on the \
            RxSchedulers core, checks correctness invariants while measuring, and writes \
            results.csv and summary.csv.

            Exit codes: 0 ok; 1 error (unreadable input, unwritable output); 2 performance \
            regression (compare, gate); 3 correctness \
            failure (invariant violated or resources leaked); 64 usage.
            """,
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self]
    )

    static func main() {
        // This executable links jemalloc; the engine reads its statistics through mallctl.
        AllocationCounter.mallctl = { name, old, oldSize, new, newSize in mallctl(name, old, oldSize, new, newSize) }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
