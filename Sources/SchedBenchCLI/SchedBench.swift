import ArgumentParser
import Foundation
import SchedulerBench

/// `schedbench`: the root command. Parses, runs the subcommand, and turns what it
/// returned or threw into the process's exit status (`ExitStatus`).
public struct SchedBench: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "schedbench",
        abstract: "Measure and compare Rx schedulers and hand-off strategies.",
        discussion: """
            Runs workload matrices (scheduler × strategy × producers × payload × rate) on the \
            RxSchedulers core, checks correctness invariants while measuring, writes \
            results.csv and summary.csv, and compares runs for CI.

            \(ExitStatus.documentation)
            """,
        subcommands: [
            RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self, StressCommand.self, ExportCommand.self, HistoryCommand.self,
            ReportCommand.self,
            ChildCommand.self,
        ]
    )

    public init() {}

    /// Parses the process's arguments, runs the command and exits with its status.
    public static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(ExitStatus.ok.rawValue)
        } catch let status as ExitStatus {
            Foundation.exit(status.rawValue)
        } catch let error as BenchError {
            printError("error: \(error)")
            Foundation.exit(ExitStatus.error.rawValue)
        } catch {
            // Usage errors (64), --help and --version, as ArgumentParser reports them.
            Self.exit(withError: error)
        }
    }
}

/// Writes a line to standard error (messages; standard output carries only results).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
