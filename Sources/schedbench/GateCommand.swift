import ArgumentParser
import Foundation
import SchedulerBench

struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Run a baseline and a candidate build interleaved on the same cases, then compare.",
        discussion: """
            Both executables are schedbench binaries (for example main's and the pull \
            request's). Each round runs one timed trial of every case on each build, in \
            alternating order, so machine drift hits both alike. Options after -- go to \
            `schedbench run` to choose the cases, e.g. -- --suite quick --workload observeOn.throughput. \
            Writes baseline/, candidate/ and comparison.csv under --out.

            Exit codes: 0 no regression; 2 regression; 3 correctness failure in the candidate; \
            1 a build failed to run or its output was unreadable; 64 usage.
            """
    )

    @Option(help: ArgumentHelp("The baseline build's schedbench executable.", valueName: "path"))
    var baseline: String

    @Option(help: ArgumentHelp("The candidate build's schedbench executable.", valueName: "path"))
    var candidate: String

    @Option(help: "Rounds: timed trials per case on each side.")
    var rounds = 10

    @Option(help: "Directory for both sides' results and comparison.csv (default: results/gate-<time>).")
    var out: String?

    @OptionGroup var comparison: ComparisonOptions

    @Argument(parsing: .postTerminator, help: "Options for `schedbench run` (after --).")
    var runArguments: [String] = []

    func validate() throws {
        guard rounds >= 2 else { throw ValidationError("--rounds \(rounds) must be at least 2 (a confidence bound needs two trials per side)") }
        for (option, path) in [("--baseline", baseline), ("--candidate", candidate)] where !FileManager.default.isExecutableFile(atPath: path) {
            throw ValidationError("\(option) '\(path)' is not an executable file")
        }
        for reserved in ["--trials", "--out", "--isolate"] where runArguments.contains(reserved) {
            throw ValidationError("\(reserved) is set by gate; remove it from the run options")
        }
    }

    func run() throws {
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let directory = URL(fileURLWithPath: out ?? "results/gate-\(stamp)")
        let runs = InterleavedRuns(baseline: baseline, candidate: candidate, rounds: rounds,
                                   runArguments: runArguments, directory: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try runs.execute { printError("gate: \($0)") }
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        let status = try comparison.compare(base: runs.resultsDirectory(.baseline).path, new: runs.resultsDirectory(.candidate).path,
                                            writingCSVTo: directory.appendingPathComponent("comparison.csv"))
        printError("gate: results in \(directory.path)")
        if status != 0 { throw ExitCode(status) }
    }
}
