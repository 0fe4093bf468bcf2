import ArgumentParser
import CProcess
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `schedbench`: the root command. Parses, runs the subcommand, and turns what it
/// returned or threw into the process's exit status (`ExitStatus`). Started by a user's
/// SchedulerBench executable, it goes by that executable's name (`SCHEDBENCH_COMMAND`).
package struct SchedBench: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: commandName,
        abstract: "Measure and compare Rx schedulers and hand-off strategies.",
        discussion: """
            Runs workload matrices (scheduler × strategy × producers × payload × rate) on the \
            RxSchedulers core, checks correctness invariants while measuring, writes \
            results.csv and summary.csv, and compares runs for CI. The measuring is done by \
            \(ToolLocation.builtInsName) beside this tool, or by the SchedulerBench executable \
            \(ToolLocation.targetVariable) names (a package's own, which starts this tool with it).

            \(ExitStatus.documentation)
            """,
        version: SchedBench.version,
        subcommands: [
            RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self, MergeCommand.self, StressCommand.self, ExportCommand.self, HistoryCommand.self,
            ReportCommand.self,
            ChildCommand.self,
        ]
    )

    package init() {}

    /// The command the tool goes by in usage text, `--version` and replay lines: the user's
    /// executable's name when one started it, the plugin's command through the plugin, else
    /// `schedbench`. A given one with control characters, or over 120 characters, is ignored.
    static let commandName: String = {
        let given = ProcessInfo.processInfo.environment[ToolLocation.commandVariable] ?? ""
        let usable = !given.isEmpty && given.count <= 120 && !given.unicodeScalars.contains { $0.properties.generalCategory == .control }
        return usable ? given : ToolLocation.toolName
    }()

    /// What a replay line starts with: `commandName`, after the assignment that picks the
    /// measuring executable when `SCHEDBENCH_TARGET` was set by hand (no command name came
    /// with it), so that the line replays against the same build.
    static var replayCommandName: String {
        let environment = ProcessInfo.processInfo.environment
        guard environment[ToolLocation.commandVariable] == nil, let target = environment[ToolLocation.targetVariable], !target.isEmpty
        else { return commandName }
        return "\(ToolLocation.targetVariable)=\(ShellWord.quoted(target)) \(commandName)"
    }

    /// What `--version` prints: no release has been made, so the build says what it speaks.
    static let version =
        (commandName == ToolLocation.toolName ? "" : "\(commandName), measured with ")
        + "schedbench (unreleased development build; child protocol \(BuildVersions.childProtocol), history schema \(BuildVersions.historySchema))"

    /// Parses the process's arguments, runs the command and exits with its status.
    package static func main() {
        // Standard output is line-buffered even into a pipe or a file: a line printed
        // ("added …") is out before the next one, so it is not lost when the process is
        // killed, and never lands in the middle of a line written to standard error.
        schedbench_line_buffer_stdout()
        // The children's scratch roots are made inside this process's, which nothing else
        // removes once they have finished: every way out of here goes through exit().
        atexit { ScratchSpace.removeAll() }
        StressResult.commandName = replayCommandName
        var parsed: ParsableCommand.Type = SchedBench.self
        do {
            var command = try parseAsRoot()
            parsed = type(of: command)
            try command.run()
            Foundation.exit(ExitStatus.ok.rawValue)
        } catch let status as ExitStatus {
            Foundation.exit(status.rawValue)
        } catch BenchError.usage(let problem) {
            // The measuring executable refused a name or a value: a usage error like any other.
            printError("error: \(problem)")
            Foundation.exit(ExitStatus.usage.rawValue)
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
