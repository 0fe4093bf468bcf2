import ArgumentParser
import CProcess
import Foundation
import BenchWorkflows

/// `schedbench`: the root command. Parses, runs the subcommand, and turns what it
/// returned or threw into the process's exit status (`ExitStatus`).
package struct SchedBench: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "schedbench",
        abstract: "Measure and compare Rx schedulers and hand-off strategies.",
        discussion: """
            Runs workload matrices (scheduler × strategy × producers × payload × rate) on the \
            RxSchedulers core, checks correctness invariants while measuring, writes \
            results.csv and summary.csv, and compares runs for CI.

            \(ExitStatus.documentation)
            """,
        version: SchedBench.version,
        subcommands: [
            RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self, StressCommand.self, ExportCommand.self, HistoryCommand.self,
            ReportCommand.self,
            ChildCommand.self,
        ]
    )

    package init() {}

    /// What `--version` prints: no release has been made, so the build says what it speaks.
    static let version =
        "schedbench (unreleased development build; child protocol \(BuildVersions.childProtocol), history schema \(BuildVersions.historySchema))"

    /// Parses the process's arguments, runs the command and exits with its status.
    package static func main() {
        // Standard output is line-buffered even into a pipe or a file: a line printed
        // ("added …") is out before the next one, so it is not lost when the process is
        // killed, and never lands in the middle of a line written to standard error.
        schedbench_line_buffer_stdout()
        var parsed: ParsableCommand.Type = SchedBench.self
        do {
            var command = try parseAsRoot()
            parsed = type(of: command)
            try command.run()
            Foundation.exit(ExitStatus.ok.rawValue)
        } catch let status as ExitStatus {
            Foundation.exit(status.rawValue)
        } catch let error as BenchError {
            printError("error: \(error)")
            Foundation.exit(ExitStatus.error.rawValue)
        } catch {
            // Usage errors (64), --help and --version, as ArgumentParser reports them; one
            // thrown while a subcommand runs shows that subcommand's usage.
            parsed.exit(withError: error)
        }
    }
}

/// Writes a line to standard error (messages; standard output carries only results), with
/// any control character in it made visible (`TerminalText`): messages quote paths and ids
/// that came from files.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalText.visible(text) + "\n").utf8))
}
